-- Full-text search (FTS5) over items, identifiers, locations and parties.
-- External-content tables keyed by the base tables' rowid, kept in step by
-- triggers. After a VACUUM (which may renumber rowids) run
-- `INSERT INTO <t>_fts(<t>_fts) VALUES('rebuild')` for each; `tenant migrate` does not VACUUM.
CREATE VIRTUAL TABLE `items_fts` USING fts5(name, serial_number, content='items', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `items_fts_ai` AFTER INSERT ON `items` BEGIN INSERT INTO items_fts(rowid, name, serial_number) VALUES (new.rowid, new.name, new.serial_number); END;
--> statement-breakpoint
CREATE TRIGGER `items_fts_ad` AFTER DELETE ON `items` BEGIN INSERT INTO items_fts(items_fts, rowid, name, serial_number) VALUES ('delete', old.rowid, old.name, old.serial_number); END;
--> statement-breakpoint
CREATE TRIGGER `items_fts_au` AFTER UPDATE OF name, serial_number ON `items` BEGIN INSERT INTO items_fts(items_fts, rowid, name, serial_number) VALUES ('delete', old.rowid, old.name, old.serial_number); INSERT INTO items_fts(rowid, name, serial_number) VALUES (new.rowid, new.name, new.serial_number); END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `identifiers_fts` USING fts5(value, digital_link, epc_uri, content='identifiers', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `identifiers_fts_ai` AFTER INSERT ON `identifiers` BEGIN INSERT INTO identifiers_fts(rowid, value, digital_link, epc_uri) VALUES (new.rowid, new.value, new.digital_link, new.epc_uri); END;
--> statement-breakpoint
CREATE TRIGGER `identifiers_fts_ad` AFTER DELETE ON `identifiers` BEGIN INSERT INTO identifiers_fts(identifiers_fts, rowid, value, digital_link, epc_uri) VALUES ('delete', old.rowid, old.value, old.digital_link, old.epc_uri); END;
--> statement-breakpoint
CREATE TRIGGER `identifiers_fts_au` AFTER UPDATE OF value, digital_link, epc_uri ON `identifiers` BEGIN INSERT INTO identifiers_fts(identifiers_fts, rowid, value, digital_link, epc_uri) VALUES ('delete', old.rowid, old.value, old.digital_link, old.epc_uri); INSERT INTO identifiers_fts(rowid, value, digital_link, epc_uri) VALUES (new.rowid, new.value, new.digital_link, new.epc_uri); END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `locations_fts` USING fts5(name, code, content='locations', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `locations_fts_ai` AFTER INSERT ON `locations` BEGIN INSERT INTO locations_fts(rowid, name, code) VALUES (new.rowid, new.name, new.code); END;
--> statement-breakpoint
CREATE TRIGGER `locations_fts_ad` AFTER DELETE ON `locations` BEGIN INSERT INTO locations_fts(locations_fts, rowid, name, code) VALUES ('delete', old.rowid, old.name, old.code); END;
--> statement-breakpoint
CREATE TRIGGER `locations_fts_au` AFTER UPDATE OF name, code ON `locations` BEGIN INSERT INTO locations_fts(locations_fts, rowid, name, code) VALUES ('delete', old.rowid, old.name, old.code); INSERT INTO locations_fts(rowid, name, code) VALUES (new.rowid, new.name, new.code); END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `parties_fts` USING fts5(name, external_ref, content='parties', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `parties_fts_ai` AFTER INSERT ON `parties` BEGIN INSERT INTO parties_fts(rowid, name, external_ref) VALUES (new.rowid, new.name, new.external_ref); END;
--> statement-breakpoint
CREATE TRIGGER `parties_fts_ad` AFTER DELETE ON `parties` BEGIN INSERT INTO parties_fts(parties_fts, rowid, name, external_ref) VALUES ('delete', old.rowid, old.name, old.external_ref); END;
--> statement-breakpoint
CREATE TRIGGER `parties_fts_au` AFTER UPDATE OF name, external_ref ON `parties` BEGIN INSERT INTO parties_fts(parties_fts, rowid, name, external_ref) VALUES ('delete', old.rowid, old.name, old.external_ref); INSERT INTO parties_fts(rowid, name, external_ref) VALUES (new.rowid, new.name, new.external_ref); END;

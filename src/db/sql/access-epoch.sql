-- A counter of changes to who may do what in this partner: every write to
-- memberships, capability_settings or capability_grants bumps it, whichever
-- connection or process makes it. The request path memoises a user's access
-- until it moves, instead of until anything at all commits.
CREATE TABLE `access_epoch` (`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1), `n` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `access_epoch` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `memberships_access_ai` AFTER INSERT ON `memberships` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `memberships_access_au` AFTER UPDATE ON `memberships` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `memberships_access_ad` AFTER DELETE ON `memberships` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_settings_access_ai` AFTER INSERT ON `capability_settings` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_settings_access_au` AFTER UPDATE ON `capability_settings` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_settings_access_ad` AFTER DELETE ON `capability_settings` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_grants_access_ai` AFTER INSERT ON `capability_grants` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_grants_access_au` AFTER UPDATE ON `capability_grants` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `capability_grants_access_ad` AFTER DELETE ON `capability_grants` BEGIN UPDATE access_epoch SET n = n + 1 WHERE id = 1; END;

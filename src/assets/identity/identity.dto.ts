// The wire shape of an identifier, shared by the identity routes and the item detail.
import { z } from "@hono/zod-openapi";
import { RecordMeta } from "../../platform/http/common-schemas.ts";
import { IDENTIFIER_SCHEMES } from "../kernel/index.ts";
import { identifiers } from "./identity.tables.ts";

export type IdentifierRow = typeof identifiers.$inferSelect;
export const IDENTIFIER_STATES = ["issued", "active", "suspended", "retired"] as const;
export type IdentifierState = (typeof IDENTIFIER_STATES)[number];

export const Identifier = z
  .object({
    ...RecordMeta,
    itemId: z.string(),
    scheme: z.enum(IDENTIFIER_SCHEMES),
    value: z.string().openapi({
      description: "Canonical spelling: the element string for GS1 keys ((8004)…, (01)…(21)…), the pure-identity URN for EPCs, else the trimmed value",
    }),
    digitalLink: z.string().nullable().openapi({ description: "GS1 Digital Link on id.gs1.org, for GS1 keys and GS1-based EPCs" }),
    epcUri: z.string().nullable().openapi({
      description:
        "EPC pure-identity URN. Null unless companyPrefixLength was given at issue or the value itself was an EPC URN or hex: " +
        "a GS1 key alone does not say where its company prefix ends, and the URN depends on it (decision on contract §13).",
    }),
    state: z.enum(IDENTIFIER_STATES),
    version: z.number().int(),
  })
  .openapi("Identifier");
export type IdentifierDto = z.infer<typeof Identifier>;

export function toIdentifierDto(r: IdentifierRow): IdentifierDto {
  return {
    id: r.id,
    itemId: r.itemId,
    scheme: r.scheme,
    value: r.value,
    digitalLink: r.digitalLink,
    epcUri: r.epcUri,
    state: r.state,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

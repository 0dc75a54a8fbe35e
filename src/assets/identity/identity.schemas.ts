// Request and response schemas of the identity routes (issue, transition, scan).
import { z } from "@hono/zod-openapi";
import { Id, ExpectedVersion, freeText } from "../../platform/http/common-schemas.ts";
import { Item } from "../kernel/index.ts";
import { Checkout } from "../custody/index.ts";
import { IDENTIFIER_SCHEMES } from "../kernel/index.ts";
import { Identifier, IDENTIFIER_STATES } from "./identity.dto.ts";

export const RAW_MAX = 2048;

export const IssueIdentifier = z
  .strictObject({
    itemId: Id,
    scheme: z.enum(IDENTIFIER_SCHEMES),
    value: z.string().min(1).max(RAW_MAX).openapi({
      description:
        "GS1 schemes: the bare key (GIAI only), an element string such as (01)09506000134352(21)ABC, or a Digital Link URI; " +
        "rfid_epc: a pure-identity URN or its 96-bit hex. Every spelling of one key is the same identifier. " +
        "A value as scanned may hold GS1's FNC1 separator (U+001D), the one control character accepted here.",
    }),
    companyPrefixLength: z.number().int().min(6).max(12).optional().openapi({
      description: "Beyond the spec: the GS1 Company Prefix length (6–12) of a GS1 key, so the service can derive its EPC URI.",
    }),
  })
  .openapi("IssueIdentifier");

export const TransitionIdentifier = z
  .strictObject({
    to: z.enum(IDENTIFIER_STATES),
    reason: freeText(500, { multiline: true }).optional(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .openapi("TransitionIdentifier");

export const ResolveScan = z
  .strictObject({
    raw: z.string().min(1).max(RAW_MAX).openapi({ description: "The scanned string, as read; GS1's FNC1 separator (U+001D) is the one control character accepted here" }),
  })
  .openapi("ResolveScan");

export const ScanResolution = z
  .object({
    item: Item,
    identifier: Identifier,
    custody: z.union([Checkout, z.null()]).openapi({ description: "The item's open checkout, or null" }),
  })
  .openapi("ScanResolution");

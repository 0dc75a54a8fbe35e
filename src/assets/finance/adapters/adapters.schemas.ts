// The accounting adapters' request and answer (UBL 2.3, XBRL GL, IFRS).
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id } from "../../../platform/http/common-schemas.ts";

export const ADAPTER_FORMATS = ["ubl-2.3", "xbrl-gl-2025", "ifrs"] as const;
export const AdapterParams = z.strictObject({ format: z.enum(ADAPTER_FORMATS) });
export const AdapterQuery = z.strictObject({ bookId: Id, asOf: CalendarDate });

export const AdapterDocument = z
  .object({
    format: z.enum(ADAPTER_FORMATS),
    mappingVersion: z.string(),
    disclaimer: z.string(),
    mediaType: z.string(),
    bookId: z.string(),
    asOf: z.string(),
    document: z.string().openapi({ description: "The serialised document (XML, or xBRL-JSON for ifrs)" }),
  })
  .openapi("FinanceAdapterDocument");

// Wire pieces every finance section shares: the reason text, ISO 4217 currencies and
// decimal strings. Each section's bodies and answers are in its own *.schemas.ts.
import { z } from "@hono/zod-openapi";
import { freeText } from "../../platform/http/common-schemas.ts";
import { isCurrency } from "../../platform/money/money.ts";

export const Reason = freeText(1000, { multiline: true });
const ISO_CURRENCIES = Intl.supportedValuesOf("currency").filter((c) => /^[A-Z]{3}$/.test(c)).sort();
export const Currency = z.string().refine(isCurrency, "must be an ISO 4217 currency code").openapi({ type: "string", enum: ISO_CURRENCIES, example: "EUR", description: "ISO 4217" });
export const Decimal = (what: string) =>
  z
    .string({ error: `must be a decimal string (${what}), not a number` })
    .regex(/^\d{1,9}(\.\d{1,6})?$/, `must be a non-negative decimal string (${what})`);

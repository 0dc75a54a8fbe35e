// Money is a decimal string plus an ISO 4217 currency; never a float. An amount may
// have at most the currency's minor units and is returned padded to exactly them.
import { z } from "@hono/zod-openapi";

const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const minorCache = new Map<string, number>();

export function minorUnits(currency: string): number {
  let n = minorCache.get(currency);
  if (n === undefined) {
    n = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorCache.set(currency, n);
  }
  return n;
}

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** "12.5" EUR → "12.50"; assumes a validated decimal string. */
export function normaliseAmount(amount: string, currency: string): string {
  const digits = minorUnits(currency);
  const negative = amount.startsWith("-");
  const [intPart = "0", frac = ""] = (negative ? amount.slice(1) : amount).split(".");
  const int = intPart.replace(/^0+(?=\d)/, "");
  const out = digits === 0 ? int : `${int}.${frac.padEnd(digits, "0")}`;
  return negative && /[1-9]/.test(out) ? `-${out}` : out;
}

function moneySchema(allowNegative: boolean) {
  const amountRe = allowNegative ? /^-?\d{1,15}(\.\d{1,4})?$/ : /^\d{1,15}(\.\d{1,4})?$/;
  return z
    .strictObject({
      amount: z
        .string({ error: "must be a decimal string such as \"1234.50\", not a number" })
        .regex(amountRe, allowNegative ? "must be a decimal string such as \"-12.50\"" : "must be a non-negative decimal string such as \"1234.50\""),
      currency: z.string().refine(isCurrency, "must be an ISO 4217 currency code"),
    })
    .superRefine((m, ctx) => {
      if (!isCurrency(m.currency)) return;
      const frac = m.amount.split(".")[1] ?? "";
      const digits = minorUnits(m.currency);
      if (frac.length > digits) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: `${m.currency} allows at most ${digits} decimal places` });
      }
    })
    .transform((m) => ({ amount: normaliseAmount(m.amount, m.currency), currency: m.currency }));
}

/** The rule between the two fields that a JSON Schema cannot state, as the document words it. */
export const MINOR_UNITS_RULE = "The amount has at most the currency's minor units of decimals (EUR 2, JPY 0, BHD 3); it is answered padded to exactly them.";

export const Money = moneySchema(false).openapi("Money", {
  type: "object",
  description: MINOR_UNITS_RULE,
  properties: {
    amount: { type: "string", pattern: "^\\d{1,15}(\\.\\d{1,4})?$", example: "1234.50", description: "A non-negative decimal string, never a JSON number." },
    currency: { type: "string", enum: [...CURRENCIES].filter((c) => /^[A-Z]{3}$/.test(c)).sort(), example: "EUR", description: "ISO 4217" },
  },
  required: ["amount", "currency"],
  additionalProperties: false,
});
export const SignedMoney = moneySchema(true);
export const MoneyOut = z.object({ amount: z.string(), currency: z.string() }).openapi("MoneyValue");

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

export const Money = moneySchema(false).openapi("Money", {
  type: "object",
  properties: { amount: { type: "string", example: "1234.50" }, currency: { type: "string", example: "EUR" } },
  required: ["amount", "currency"],
});
export const SignedMoney = moneySchema(true);
export const MoneyOut = z.object({ amount: z.string(), currency: z.string() }).openapi("MoneyValue");

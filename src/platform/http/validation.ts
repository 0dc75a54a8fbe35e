import type { core } from "zod";
import type { FieldError } from "../errors/app-error.ts";

function pointerEscape(seg: PropertyKey): string {
  return String(seg).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** zod issues → `{ path: JSON Pointer into the request, message }`, unknown keys listed one by one. */
export function zodIssuesToFieldErrors(issues: core.$ZodIssue[], where: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const base = `/${where}${issue.path.map((p) => "/" + pointerEscape(p)).join("")}`;
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) out.push({ path: `${base}/${pointerEscape(k)}`, message: "unknown property" });
    } else if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) {
      // zod does not keep the input on issues, so a missing value is known by its message.
      out.push({ path: base, message: "required" });
    } else if (issue.code === "invalid_type" && issue.message.endsWith("received NaN")) {
      out.push({ path: base, message: `expected a single ${issue.expected}` });
    } else {
      out.push({ path: base, message: issue.message });
    }
  }
  return out;
}

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
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      out.push({ path: base, message: "required" });
    } else {
      out.push({ path: base, message: issue.message });
    }
  }
  return out;
}

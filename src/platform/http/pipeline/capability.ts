// Contract §5, capability: before any record is read, the caller must hold one of the
// route's capabilities (routeCapabilities); a route whose record decides which one applies
// checks that one itself after reading it.
import { AppError } from "../../errors/app-error.ts";
import type { Capability } from "../../auth/capabilities.ts";

export function requireCapability(needed: readonly Capability[], held: ReadonlySet<Capability>): void {
  if (needed.length > 0 && !needed.some((cap) => held.has(cap))) {
    throw new AppError("capability_denied", needed.length === 1 ? `capability ${needed[0]} required` : `one of the capabilities ${needed.join(", ")} required`);
  }
}

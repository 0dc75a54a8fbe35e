// Contract §5, step-up: a `stepUp` route needs a recent AAL2 authentication (passkey, MFA
// or OTP within the window hasRecentStepUp allows).
import { AppError } from "../../errors/app-error.ts";
import { hasRecentStepUp, type Claims } from "../../auth/token.ts";

export function requireStepUp(claims: Claims, now: Date): void {
  if (!hasRecentStepUp(claims, Math.floor(now.getTime() / 1000))) {
    throw new AppError("step_up_required", "a recent AAL2 authentication with passkey, MFA or OTP is required");
  }
}

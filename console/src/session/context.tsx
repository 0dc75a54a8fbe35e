// The caller as every page sees it: the session, `GET /api/me` (memberships, and with the
// chosen partner the effective capabilities there), and the step-up clock. Pages read it
// with useCaller(); the shell provides it.
import { createContext, type ComponentChildren } from "preact";
import { useContext, useEffect, useMemo, useState } from "preact/hooks";
import { platform, type PlatformSchemas } from "../api/client.ts";
import { unwrap } from "../api/problem.ts";
import { allows, factsOf, type OpRef } from "../api/operations.ts";
import { choosePartner, currentPartner, currentSession, subscribeSession, type Session } from "./session.ts";
import { nowSeconds, stepUpUntil } from "./token.ts";
import type { OidcSettings } from "./oidc.ts";

export type Me = PlatformSchemas["Me"];

/** What the server tells the console about itself (GET /console/config.json). */
export interface ConsoleConfig {
  /** Whether pasting a token is offered (development, or no identity provider configured). */
  tokenSignIn: boolean;
  oidc: OidcSettings | null;
}

export interface Caller {
  config: ConsoleConfig;
  session: Session;
  me: Me | undefined;
  meError: Error | undefined;
  partnerId: string | null;
  /** The chosen partner's name and the caller's role there. */
  partner: Me["partners"][number] | undefined;
  capabilities: ReadonlySet<string>;
  /** Whether the caller passes the operation's capability check at the chosen partner. */
  can: (ref: OpRef) => boolean;
  /** Seconds of step-up left (0: none). Re-evaluated every 15 s. */
  stepUpSecondsLeft: number;
  /** Null when the operation may be called now; else why not (capability or step-up). */
  blockedReason: (ref: OpRef) => string | null;
  switchPartner: (partnerId: string) => void;
}

const CallerContext = createContext<Caller | null>(null);

export function useCaller(): Caller {
  const c = useContext(CallerContext);
  if (!c) throw new Error("useCaller outside the signed-in shell");
  return c;
}

/** The session as it changes (sign-in, sign-out, partner switch). */
export function useSession(): { session: Session | null; partnerId: string | null } {
  const [s, set] = useState({ session: currentSession(), partnerId: currentPartner() });
  useEffect(() => subscribeSession(() => set({ session: currentSession(), partnerId: currentPartner() })), []);
  return s;
}

export const STEP_UP_REASON = "Needs a recent passkey or MFA sign-in (within the last 15 minutes).";

export function CallerProvider({ config, session, partnerId, children }: { config: ConsoleConfig; session: Session; partnerId: string | null; children: ComponentChildren }) {
  const [me, setMe] = useState<Me | undefined>();
  const [meError, setMeError] = useState<Error | undefined>();
  const [now, setNow] = useState(nowSeconds());

  useEffect(() => {
    const t = setInterval(() => setNow(nowSeconds()), 15_000);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    let live = true;
    setMeError(undefined);
    platform
      .GET("/api/me", { params: { query: partnerId ? { partnerId } : {} } })
      .then(unwrap)
      .then(
        (m) => {
          if (!live) return;
          // No partner chosen yet, or one the caller no longer belongs to: the first they do.
          const known = partnerId && m.partners.some((p) => p.partnerId === partnerId);
          if (!known) {
            const first = m.partners[0]?.partnerId ?? null;
            if (first !== partnerId) {
              choosePartner(first);
              return;
            }
          }
          setMe(m);
        },
        (e: Error) => live && setMeError(e),
      );
    return () => {
      live = false;
    };
  }, [session.token, partnerId]);

  const value = useMemo<Caller>(() => {
    const capabilities = new Set<string>(me?.partner?.partnerId === partnerId ? (me?.partner?.capabilities ?? []) : []);
    const until = stepUpUntil(session.claims);
    const stepUpSecondsLeft = until === null ? 0 : Math.max(0, until - now);
    const can = (ref: OpRef) => allows(capabilities, ref);
    return {
      config,
      session,
      me,
      meError,
      partnerId,
      partner: me?.partners.find((p) => p.partnerId === partnerId),
      capabilities,
      can,
      stepUpSecondsLeft,
      blockedReason: (ref) => {
        const facts = factsOf(ref);
        if (!can(ref)) return `Needs the capability ${facts.capability.join(" or ")}.`;
        if (facts.stepUp && stepUpSecondsLeft <= 0) return STEP_UP_REASON;
        return null;
      },
      switchPartner: (id) => choosePartner(id),
    };
  }, [config, session, me, meError, partnerId, now]);

  return <CallerContext.Provider value={value}>{children}</CallerContext.Provider>;
}

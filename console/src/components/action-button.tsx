// Actions as the caller may take them. An action whose operation the caller's capabilities do
// not allow is not shown (<Can>, <ActionButton>). An operation marked x-step-up in the
// document says so next to its button before the click ("Needs a recent passkey or MFA
// sign-in"), and is disabled with that reason once the token's step-up has lapsed — instead of
// failing with 403 step_up_required. The facts come from the generated documents.
import type { ButtonHTMLAttributes, ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { factsOf, type OpRef } from "../api/operations.ts";
import { STEP_UP_REASON, useCaller } from "../session/context.tsx";
import { startOidcSignIn } from "../session/oidc.ts";
import { Dialog } from "./dialog.tsx";

/** Renders children only when the caller passes the operation's capability check. */
export function Can({ op, children, otherwise = null }: { op: OpRef; children: ComponentChildren; otherwise?: ComponentChildren }) {
  const caller = useCaller();
  return <>{caller.can(op) ? children : otherwise}</>;
}

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? "1 more minute" : `${m} more minutes`;
}

/** The step-up note of an action: what it needs, and how to get it when it has lapsed. */
export function StepUpNote({ id, op }: { id: string; op: OpRef }) {
  const caller = useCaller();
  if (!factsOf(op).stepUp) return null;
  const left = caller.stepUpSecondsLeft;
  if (left > 0) {
    return (
      <span id={id} class="step-up-note">
        Needs a recent passkey or MFA sign-in: yours is valid for {minutes(left)}.
      </span>
    );
  }
  const oidc = caller.session.source === "oidc" ? caller.config.oidc : null;
  return (
    <span id={id} class="step-up-note step-up-lapsed">
      {STEP_UP_REASON}{" "}
      {oidc ? (
        <button type="button" class="button-link" onClick={() => void startOidcSignIn(oidc, location.pathname + location.search, true)}>
          Sign in again
        </button>
      ) : (
        <>Sign in again with a fresh token (npm run token -- {caller.session.claims.sub}).</>
      )}
    </span>
  );
}

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick" | "disabled" | "type" | "role"> & {
  op: OpRef;
  onClick: () => void;
  children: ComponentChildren;
  /** Styles it as destructive (the confirmation is the caller's: see ConfirmButton). */
  destructive?: boolean;
  pending?: boolean;
  /** Not yet possible (a form still lacks its input): aria-disabled, so it stays focusable next to what it needs. */
  disabled?: boolean;
  type?: "button" | "submit";
};

/**
 * A button for one operation: hidden without the capability; with x-step-up, described by the
 * step-up note and aria-disabled (still focusable, so the reason is found) when it has lapsed.
 */
export function ActionButton({ op, onClick, children, destructive, pending, disabled, type = "button", class: cls, ...rest }: ButtonProps) {
  const caller = useCaller();
  const noteId = useId();
  if (!caller.can(op)) return null;
  const blocked = caller.blockedReason(op);
  const stepUp = factsOf(op).stepUp;
  return (
    <span class="action">
      <button
        {...rest}
        type={type}
        class={`button${destructive ? " button-danger" : ""}${cls ? ` ${cls}` : ""}`}
        aria-disabled={blocked || pending || disabled ? "true" : undefined}
        aria-describedby={stepUp ? noteId : undefined}
        onClick={(e) => {
          if (blocked || pending || disabled) {
            e.preventDefault();
            return;
          }
          if (type === "button") onClick();
        }}
      >
        {children}
        {pending ? <span class="visually-hidden"> (working)</span> : null}
      </button>
      {stepUp ? <StepUpNote id={noteId} op={op} /> : null}
    </span>
  );
}

/** A destructive action behind a confirmation dialog that names what will happen. */
export function ConfirmButton({
  op,
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
}: {
  op: OpRef;
  label: ComponentChildren;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => Promise<boolean | void> | void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const messageId = useId();
  return (
    <>
      <ActionButton op={op} destructive onClick={() => setOpen(true)}>
        {label}
      </ActionButton>
      <Dialog open={open} title={title} onClose={() => setOpen(false)} describedBy={messageId}>
        <div id={messageId} class="dialog-body">
          {message}
        </div>
        <div class="button-row">
          <button type="button" class="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button
            type="button"
            class="button button-danger"
            aria-disabled={busy ? "true" : undefined}
            onClick={async () => {
              if (busy) return;
              setBusy(true);
              try {
                const r = await onConfirm();
                if (r !== false) setOpen(false);
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </Dialog>
    </>
  );
}

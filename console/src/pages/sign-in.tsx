// Signing in. Development (and any server without an identity provider): paste a bearer
// token — the one `npm start` prints on the first start, or `npm run token -- <userId>`. It is
// kept in this tab's sessionStorage only. Production: the configured OpenID Connect provider
// (Authorization Code with PKCE), see session/oidc.ts.
import { useEffect, useRef, useState } from "preact/hooks";
import { signIn, takeNotice } from "../session/session.ts";
import { completeOidcSignIn, startOidcSignIn } from "../session/oidc.ts";
import type { ConsoleConfig } from "../session/context.tsx";
import { navigate, useLocation } from "../router/router.tsx";
import { FormSummary, TextAreaField } from "../components/form.tsx";
import { PAGE_HEADING_ID } from "../components/page.tsx";

export function SignInPage({ config }: { config: ConsoleConfig }) {
  const [notice] = useState(takeNotice);
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = "Sign in · Operator console";
    // After a session ended, say so: the heading (and the notice after it) is where the reader is.
    if (notice) heading.current?.focus();
  }, []);

  const submit = (e: Event) => {
    e.preventDefault();
    const r = signIn(token, "token");
    if (!r.ok) setError(r.reason);
  };
  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <h1 id={PAGE_HEADING_ID} ref={heading} tabIndex={-1}>
        Sign in to the operator console
      </h1>
      {notice ? (
        <div class="notice notice-warn" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {config.oidc ? (
        <section aria-labelledby="oidc-heading" class="panel">
          <h2 id="oidc-heading">With your organisation's account</h2>
          <button
            type="button"
            class="button button-primary"
            aria-disabled={busy ? "true" : undefined}
            onClick={async () => {
              setBusy(true);
              try {
                await startOidcSignIn(config.oidc!, location.pathname + location.search);
              } catch (err) {
                setError(err instanceof Error ? err.message : String(err));
                setBusy(false);
              }
            }}
          >
            Sign in with your identity provider
          </button>
        </section>
      ) : null}
      {config.tokenSignIn ? (
        <section aria-labelledby="token-heading" class="panel">
          <h2 id="token-heading">With a bearer token</h2>
          <form onSubmit={submit} noValidate>
            <FormSummary messages={error ? [error] : []} />
            <TextAreaField
              label="Bearer token"
              name="token"
              required
              rows={4}
              spellcheck={false}
              autoComplete="off"
              hint={
                <>
                  The token <code>npm start</code> printed on its first start, or a fresh one from <code>npm run token -- &lt;userId&gt;</code>. It stays in this browser tab only and
                  ends with it.
                </>
              }
              value={token}
              onInput={(e) => setToken((e.currentTarget as HTMLTextAreaElement).value)}
            />
            <button type="submit" class="button button-primary">
              Sign in
            </button>
          </form>
        </section>
      ) : null}
    </main>
  );
}

/** /console/callback: the provider sends the browser back here with a code. */
export function CallbackPage({ config }: { config: ConsoleConfig }) {
  const loc = useLocation();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = "Signing in · Operator console";
    if (!config.oidc) {
      setError("No identity provider is configured on this server.");
      return;
    }
    completeOidcSignIn(config.oidc, loc.query).then(
      (returnTo) => {
        const inside = returnTo.startsWith("/console") ? returnTo.slice("/console".length) || "/" : "/";
        const [path, qs] = inside.split("?");
        navigate(path === "/callback" ? "/" : path!, { replace: true, query: Object.fromEntries(new URLSearchParams(qs ?? "")) });
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <h1 id={PAGE_HEADING_ID} tabIndex={-1}>
        Signing in
      </h1>
      {error ? (
        <div role="alert" class="notice notice-error">
          <p>{error}</p>
          <p>
            <a href="/console/">Back to the sign-in page</a>
          </p>
        </div>
      ) : (
        <p role="status">Completing the sign-in…</p>
      )}
    </main>
  );
}

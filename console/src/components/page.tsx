// The page frame every page uses: one h1 (the shell focuses it after a navigation, so a
// screen reader announces the new page), the document title, and the loading and error
// states of a resource.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import type { Resource } from "../data/resource.ts";
import { ProblemError } from "../api/problem.ts";

export const PAGE_HEADING_ID = "page-heading";

export function Page({ title, actions, intro, children }: { title: string; actions?: ComponentChildren; intro?: ComponentChildren; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Operator console`;
  }, [title]);
  return (
    <section aria-labelledby={PAGE_HEADING_ID} class="page">
      <div class="page-head">
        <h1 id={PAGE_HEADING_ID} tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div class="page-actions">{actions}</div> : null}
      </div>
      {intro ? <p class="intro">{intro}</p> : null}
      {children}
    </section>
  );
}

/** Renders a resource: its data, or "Loading…" (a polite status), or the error with a retry. */
export function Loaded<T>({ resource, label, children }: { resource: Resource<T>; label: string; children: (data: T) => ComponentChildren }) {
  if (resource.data !== undefined) return <>{children(resource.data)}</>;
  if (resource.error) return <ErrorNotice error={resource.error} onRetry={resource.reload} label={label} />;
  return (
    <p role="status" class="muted">
      Loading {label}…
    </p>
  );
}

export function ErrorNotice({ error, onRetry, label }: { error: Error; onRetry?: () => void; label?: string }) {
  const status = error instanceof ProblemError ? error.status : undefined;
  return (
    <div role="alert" class="notice notice-error">
      <p>
        <strong>{label ? `Could not load ${label}.` : "Something went wrong."}</strong> {error.message}
        {status === 403 ? " Your role at this partner does not allow it." : ""}
      </p>
      {onRetry ? (
        <button type="button" class="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

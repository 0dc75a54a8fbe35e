// Client-side routes under /console with the History API: real URLs (the server answers
// index.html for every /console/* path), back and forward work, links are ordinary <a
// href> (open in a new tab, copy, middle-click). The shell moves focus to the new page's
// heading after a navigation; a change of the query alone (filters) keeps focus where it is.
import type { AnchorHTMLAttributes, ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

export const BASE = "/console";

export interface Location {
  /** Path inside the console, always starting with "/" ("/" is the overview). */
  path: string;
  query: URLSearchParams;
  /** Counts navigations (not query-only changes); the shell focuses the heading when it moves. */
  navigation: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let navigation = 0;

function read(): Location {
  const p = window.location.pathname;
  const inside = p === BASE ? "/" : p.startsWith(BASE + "/") ? p.slice(BASE.length) || "/" : "/";
  return { path: inside, query: new URLSearchParams(window.location.search), navigation };
}

let current = read();

function changed(pathChanged: boolean): void {
  if (pathChanged) navigation++;
  current = read();
  for (const l of [...listeners]) l();
}

window.addEventListener("popstate", () => changed(read().path !== current.path));

/** The console URL of an inside path (and optional query). */
export function href(path: string, query?: Record<string, string | undefined> | URLSearchParams): string {
  const qs = query instanceof URLSearchParams ? query : new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));
  const s = qs.toString();
  return `${BASE}${path === "/" ? "/" : path}${s ? `?${s}` : ""}`;
}

export function navigate(path: string, opts: { replace?: boolean; query?: Record<string, string | undefined> } = {}): void {
  const url = href(path, opts.query);
  if (opts.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  changed(path !== current.path);
}

/** Replaces the query of the current page (filters), keeping focus; pushes a history entry unless `replace`. */
export function setQuery(query: Record<string, string | undefined>, opts: { replace?: boolean } = {}): void {
  const url = href(current.path, query);
  if (opts.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  changed(false);
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const l = () => setLoc(current);
    listeners.add(l);
    setLoc(current);
    return () => void listeners.delete(l);
  }, []);
  return loc;
}

/** Params of `pattern` ("/assets/items/:id") when `path` matches it, else null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const ps = pattern.split("/").filter(Boolean);
  const xs = path.split("/").filter(Boolean);
  if (ps.length !== xs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    const x = xs[i]!;
    if (p.startsWith(":")) params[p.slice(1)] = decodeURIComponent(x);
    else if (p !== x) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href" | "onClick" | "role"> & {
  to: string;
  query?: Record<string, string | undefined>;
  children: ComponentChildren;
  /** Marks the link `aria-current="page"` when its path is the current one (navigation lists). */
  current?: boolean;
};

/** An ordinary link that navigates inside the console without reloading. */
export function Link({ to, query, children, current: isCurrent, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to, { query });
  };
  return (
    <a {...rest} href={href(to, query)} onClick={onClick} aria-current={isCurrent ? "page" : undefined}>
      {children}
    </a>
  );
}

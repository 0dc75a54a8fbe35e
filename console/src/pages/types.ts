// A console page: its path under /console, its title (the h1 and the document title), where
// the navigation lists it, and the operation it needs — a caller whose capabilities do not
// pass that operation's check does not see the page in the navigation, and gets a notice
// instead of the page when they open its URL.
import type { JSX } from "preact";
import type { OpRef } from "../api/operations.ts";

export type NavSection = "Overview" | "Assets" | "Planning" | "Administration";
export const NAV_SECTIONS: NavSection[] = ["Overview", "Assets", "Planning", "Administration"];

export interface PageProps {
  /** `:name` segments of the path. */
  params: Record<string, string>;
  /** The console URL's query (filters). */
  query: URLSearchParams;
}

export interface PageDef {
  /** Under /console, e.g. "/assets/owned" or "/assets/items/:id". */
  path: string;
  title: string;
  /** Listed in the navigation (pages reached only by links leave it out). */
  nav?: { section: NavSection; label?: string; order?: number };
  /** The operation the page reads; without its capability the page is not offered. */
  requires?: OpRef;
  render: (props: PageProps) => JSX.Element;
}

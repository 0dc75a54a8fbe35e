// The shell: skip link, header with the partner switcher and the user, the navigation built
// from the pages the caller's capabilities allow, the page, and the toasts. Signed out, every
// URL shows the sign-in page (and after signing in, the page that URL names).
import { useEffect, useState } from "preact/hooks";
import { CallerProvider, useCaller, useSession, type ConsoleConfig } from "./session/context.tsx";
import { signOut } from "./session/session.ts";
import { Link, matchPath, useLocation } from "./router/router.tsx";
import { pages } from "./pages/index.ts";
import { NAV_SECTIONS, type PageDef } from "./pages/types.ts";
import { CallbackPage, SignInPage } from "./pages/sign-in.tsx";
import { ErrorNotice, Page, PAGE_HEADING_ID } from "./components/page.tsx";
import { Toaster } from "./components/toasts.tsx";
import { humanize } from "./components/badge.tsx";

function findPage(path: string): { page: PageDef; params: Record<string, string> } | null {
  for (const page of pages) {
    const params = matchPath(page.path, path);
    if (params) return { page, params };
  }
  return null;
}

function PartnerSwitcher() {
  const caller = useCaller();
  const [choice, setChoice] = useState(caller.partnerId ?? "");
  useEffect(() => setChoice(caller.partnerId ?? ""), [caller.partnerId]);
  const partners = caller.me?.partners ?? [];
  if (partners.length === 0) return null;
  return (
    <form
      class="partner-switcher"
      onSubmit={(e) => {
        e.preventDefault();
        if (choice && choice !== caller.partnerId) caller.switchPartner(choice);
      }}
    >
      <label for="partner-select">Partner</label>
      <select id="partner-select" value={choice} onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value)}>
        {partners.map((p) => (
          <option value={p.partnerId}>
            {p.name} ({humanize(p.role)})
          </option>
        ))}
      </select>
      <button type="submit" class="button">
        Switch
      </button>
    </form>
  );
}

function Navigation({ path }: { path: string }) {
  const caller = useCaller();
  const visible = pages.filter((p) => p.nav && (!p.requires || caller.can(p.requires)));
  return (
    <nav aria-label="Main" class="sidebar">
      {NAV_SECTIONS.map((section) => {
        const items = visible.filter((p) => p.nav!.section === section).sort((a, b) => (a.nav!.order ?? 0) - (b.nav!.order ?? 0));
        if (items.length === 0) return null;
        return (
          <div class="nav-section">
            <h2 class="nav-heading" id={`nav-${section}`}>
              {section}
            </h2>
            <ul aria-labelledby={`nav-${section}`}>
              {items.map((p) => (
                <li>
                  <Link to={p.path} current={matchPath(p.path, path) !== null}>
                    {p.nav!.label ?? p.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

function CurrentPage() {
  const caller = useCaller();
  const loc = useLocation();
  const found = findPage(loc.path);
  if (!found) {
    return (
      <Page title="Page not found">
        <p>
          There is no console page at this address. <Link to="/">Go to the overview</Link>.
        </p>
      </Page>
    );
  }
  if (caller.meError) return <Page title={found.page.title}><ErrorNotice error={caller.meError} label="your memberships" /></Page>;
  if (!caller.me) {
    return (
      <Page title={found.page.title}>
        <p role="status">Loading your access…</p>
      </Page>
    );
  }
  if (!caller.partnerId) {
    return (
      <Page title="No partner">
        <p>You are not an active member of any partner. Ask a partner's administrator to add you.</p>
      </Page>
    );
  }
  if (found.page.requires && !caller.can(found.page.requires)) {
    return (
      <Page title={found.page.title}>
        <p class="notice notice-warn">Your role at {caller.partner?.name ?? caller.partnerId} does not allow this page.</p>
      </Page>
    );
  }
  return <div key={`${found.page.path}|${caller.partnerId}`}>{found.page.render({ params: found.params, query: loc.query })}</div>;
}

function Shell() {
  const caller = useCaller();
  const loc = useLocation();
  // After a navigation, focus the new page's heading: a screen reader announces the page,
  // and the next Tab starts in its content.
  useEffect(() => {
    if (loc.navigation > 0) document.getElementById(PAGE_HEADING_ID)?.focus();
  }, [loc.navigation]);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to main content
      </a>
      <header class="topbar">
        <p class="brand">
          <Link to="/">Operator console</Link>
        </p>
        <PartnerSwitcher />
        <div class="user">
          <span>
            Signed in as <strong>{caller.session.claims.sub}</strong>
          </span>
          <button type="button" class="button" onClick={() => signOut("You signed out.")}>
            Sign out
          </button>
        </div>
      </header>
      <div class="layout">
        <Navigation path={loc.path} />
        <main id="main" tabIndex={-1}>
          <CurrentPage />
        </main>
      </div>
      <Toaster />
    </>
  );
}

export function App({ config }: { config: ConsoleConfig }) {
  const { session, partnerId } = useSession();
  const loc = useLocation();
  if (loc.path === "/callback") return <CallbackPage config={config} />;
  if (!session) return <SignInPage config={config} />;
  return (
    <CallerProvider config={config} session={session} partnerId={partnerId}>
      <Shell />
    </CallerProvider>
  );
}

// The typed clients, one per family, generated from the published OpenAPI documents
// (console/api/*.d.ts, `npm run console:client`). Paths, parameters, bodies and answers are
// checked by the compiler against the documents, so the console cannot call a route that is
// not in them. Every request carries the session's bearer token; assets and planning calls
// get the chosen `partnerId`; a mutation gets an `Idempotency-Key` (the caller's, kept for
// retries of one user action — see action.ts — or a fresh one). A 401 ends the session.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths as AssetsPaths } from "../../api/assets";
import type { paths as PlanningPaths } from "../../api/planning";
import type { paths as PlatformPaths } from "../../api/platform";
import { currentPartner, currentSession, signOut } from "../session/session.ts";
import { operationFacts, type Family } from "./operations.ts";

/** Query without `partnerId` (the client adds it); optional when nothing else is required. */
type QueryPart<P> = P extends { query: infer Q }
  ? {} extends Omit<Q, "partnerId">
    ? { query?: Omit<Q, "partnerId"> }
    : { query: Omit<Q, "partnerId"> }
  : P extends { query?: infer Q }
    ? { query?: Q }
    : {};
/** Headers without `idempotency-key` (the client adds it). */
type HeaderPart<P> = P extends { header: infer H }
  ? {} extends Omit<H, "idempotency-key">
    ? { header?: Omit<H, "idempotency-key"> }
    : { header: Omit<H, "idempotency-key"> }
  : P extends { header?: infer H }
    ? { header?: H }
    : {};
type ConsoleParams<P> = Omit<P, "query" | "header"> & QueryPart<P> & HeaderPart<P>;
type ConsoleOperation<O> = O extends { parameters: infer P } ? Omit<O, "parameters"> & { parameters: ConsoleParams<P> } : O;
/** A family's `paths` as the console calls them: partnerId and Idempotency-Key are the client's. */
export type ConsolePaths<Paths> = {
  [Path in keyof Paths]: { [Method in keyof Paths[Path]]: Method extends "parameters" ? Paths[Path][Method] : ConsoleOperation<Paths[Path][Method]> };
};

export const FAMILY_BASE: Record<Family, string> = { assets: "/api/assets", planning: "/api/planning", platform: "" };
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function sessionMiddleware(family: Family): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      const session = currentSession();
      const headers = new Headers(request.headers);
      if (session) headers.set("Authorization", `Bearer ${session.token}`);
      const url = new URL(request.url);
      const partnerId = currentPartner();
      if (family !== "platform" && partnerId && !url.searchParams.has("partnerId")) url.searchParams.set("partnerId", partnerId);
      const facts = operationFacts(family, `${request.method} ${schemaPath}`);
      if (MUTATING.has(request.method) && facts && facts.idempotency !== "none" && !headers.has("Idempotency-Key")) {
        headers.set("Idempotency-Key", crypto.randomUUID());
      }
      // The body as bytes, not the request's stream: Chromium sends a streamed body only over HTTP/2.
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      return new Request(url, { method: request.method, headers, body, signal: request.signal });
    },
    onResponse({ response }) {
      // The token was refused (expired, revoked, signed by another key): back to sign-in.
      if (response.status === 401 && currentSession()) signOut("The API no longer accepts your session. Sign in again.");
      return undefined;
    },
  };
}

function familyClient<Paths extends {}>(family: Family) {
  const client = createClient<ConsolePaths<Paths>>({ baseUrl: `${location.origin}${FAMILY_BASE[family]}` });
  client.use(sessionMiddleware(family));
  return client;
}

/** `/api/assets`: every call carries the chosen partner. */
export const assets = familyClient<AssetsPaths>("assets");
/** `/api/planning`: every call carries the chosen partner. */
export const planning = familyClient<PlanningPaths>("planning");
/** Session routes (`/api/me`); no partner is added. */
export const platform = familyClient<PlatformPaths>("platform");

export type AssetsSchemas = import("../../api/assets").components["schemas"];
export type PlanningSchemas = import("../../api/planning").components["schemas"];
export type PlatformSchemas = import("../../api/platform").components["schemas"];

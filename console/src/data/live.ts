// Live updates: the partner's server-sent event streams (GET /api/assets/events/stream and
// GET /api/planning/events/stream) feed the event hub (events.ts), so the register, the hub
// board, the alerts, the reviewer queue and the planning pages reload when another user's change
// commits, without polling. Read with the typed client (fetch with the bearer token: EventSource
// cannot send it) as a stream, parsed here; resumed with Last-Event-ID after a drop (backoff from
// the server's `retry:` up to 30 s), so nothing committed meanwhile is missed. Signing out stops
// both streams; choosing another partner starts them again for it. A stream the caller may not
// read (403: no planning_view, say) or whose access was revoked stays closed until the session or
// the partner changes. <html data-live-assets / data-live-planning> tells the state
// (`connecting`, `live`, `retrying`, `off`), which the shell may show and the browser tests wait for.
import { assets, planning } from "../api/client.ts";
import { currentPartner, currentSession, subscribeSession } from "../session/session.ts";
import { publish, type Topic } from "./events.ts";

type StreamFamily = "assets" | "planning";
type LiveState = "connecting" | "live" | "retrying" | "off";

interface StreamMessage {
  id?: string;
  /** The server's reconnect delay (`retry:`), in ms. */
  retry?: number;
  event: string;
  data: string;
}

const MAX_BACKOFF_MS = 30_000;

/** The topics the pages subscribe to that an event of this type touches. */
export function topicsOf(type: string, data: Record<string, unknown>): Topic[] {
  const str = (k: string) => (typeof data[k] === "string" ? (data[k] as string) : undefined);
  if (type.startsWith("asset.") || type === "movement.corrected") return ["items", "movements"];
  if (type === "item.changed") return ["items", "work-orders"];
  if (type.startsWith("custody.")) return ["checkouts", "items", "movements"];
  if (type.startsWith("shipment.") || type.startsWith("container.")) return ["shipments", "items", "movements"];
  switch (type) {
    case "hub.task.changed":
      return ["hub-tasks", "items"];
    case "alert.changed":
      return ["alerts"];
    case "workflow_case.changed":
      return ["workflow-cases", "reviews"];
    case "policy.changed":
      return ["policies", "reviews"];
    case "audit.changed":
      return ["audits", "reviews"];
    case "evidence.changed":
      return ["evidence", "reviews"];
  }
  if (!type.startsWith("planning.")) return [];
  const projectId = str("projectId");
  const recordType = str("recordType");
  const project: Topic[] = projectId ? [`project:${projectId}`, "my-work"] : ["my-work"];
  switch (type) {
    case "planning.project.changed":
      return ["projects", ...project];
    case "planning.meeting.changed": {
      const meetingId = str("meetingId");
      return ["meetings", ...(meetingId ? [`meeting:${meetingId}`] : []), ...project];
    }
    case "planning.change_set.changed":
      return ["change-sets", ...(str("recordId") ? [`change-set:${str("recordId")}`] : []), ...project];
    case "planning.dependency.changed":
      return projectId ? [`dependencies:${projectId}`, ...project] : project;
    default:
      // planning.record.changed: a collection record (work, requirements, …), a resource link, an import, a canonical record.
      return [...(recordType && !recordType.startsWith("canonical_") ? [recordType] : []), ...project];
  }
}

/** Topics published together a moment after a burst of events, so a page reloads once per burst. */
const pending = new Set<Topic>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
function queueTopics(topics: Topic[]): void {
  for (const t of topics) pending.add(t);
  flushTimer ??= setTimeout(() => {
    flushTimer = undefined;
    const topics = [...pending];
    pending.clear();
    for (const t of topics) publish(t);
  }, 50);
}

function setState(family: StreamFamily, state: LiveState): void {
  document.documentElement.dataset[family === "assets" ? "liveAssets" : "livePlanning"] = state;
}

/** Reads SSE messages from a byte stream. */
async function* messagesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replaceAll("\r\n", "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const msg: StreamMessage = { event: "message", data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line === "" || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") msg.id = value;
          else if (field === "event") msg.event = value;
          else if (field === "data") data.push(value);
          else if (field === "retry" && /^\d+$/.test(value)) msg.retry = Number(value);
        }
        if (data.length === 0) continue;
        msg.data = data.join("\n");
        yield msg;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** One family's stream for one partner and session: connects, resumes, backs off, stops. */
class LiveStream {
  #abort = new AbortController();
  #lastEventId: string | undefined;
  #retryMs = 3_000;
  #failures = 0;
  #stopped = false;

  constructor(readonly family: StreamFamily) {
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    this.#abort.abort();
    setState(this.family, "off");
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      setState(this.family, this.#failures === 0 ? "connecting" : "retrying");
      const outcome = await this.#once().catch(() => "drop" as const);
      if (this.#stopped) return;
      if (outcome === "closed") {
        // Not allowed (403/404), revoked or expired: a new session or partner starts it again.
        this.stop();
        return;
      }
      if (outcome === "resume") {
        // The server ended the stream on purpose (overflow, a stop): back at once, from where we were.
        this.#failures = 0;
        continue;
      }
      this.#failures++;
      setState(this.family, "retrying");
      const delay = Math.min(this.#retryMs * 2 ** Math.min(this.#failures - 1, 4), MAX_BACKOFF_MS);
      await new Promise((r) => setTimeout(r, delay * (0.8 + Math.random() * 0.4)));
    }
  }

  /** One connection: "closed" (do not reconnect), "resume" (reconnect now) or "drop" (reconnect after backoff). */
  async #once(): Promise<"closed" | "resume" | "drop"> {
    const client = this.family === "assets" ? assets : planning;
    const header = this.#lastEventId !== undefined ? { "last-event-id": this.#lastEventId } : {};
    const { data, response } = await client.GET("/events/stream", { params: { header }, parseAs: "stream", signal: this.#abort.signal });
    if (!response.ok || !data) {
      // 401 ends the session (the client's middleware); 403 and 404: this caller has no such stream.
      if (response.status === 401 || response.status === 403 || response.status === 404) return "closed";
      return "drop";
    }
    let sawReady = false;
    for await (const msg of messagesOf(data as ReadableStream<Uint8Array>)) {
      if (msg.id !== undefined) this.#lastEventId = msg.id;
      if (msg.retry !== undefined) this.#retryMs = msg.retry;
      switch (msg.event) {
        case "ready": {
          sawReady = true;
          this.#failures = 0;
          // A resumed stream replays what was missed, so nothing needs reloading here.
          setState(this.family, "live");
          continue;
        }
        case "revoked":
        case "expired":
          return "closed";
        case "overflow":
          return "resume";
      }
      let parsed: { data?: Record<string, unknown> } = {};
      try {
        parsed = JSON.parse(msg.data) as { data?: Record<string, unknown> };
      } catch {
        continue;
      }
      queueTopics(topicsOf(msg.event, parsed.data ?? {}));
    }
    // The server closed the stream without a reason (a graceful stop): reconnect, resuming.
    return sawReady ? "resume" : "drop";
  }
}

let streams: LiveStream[] = [];
let key: string | null = null;

function sync(): void {
  const session = currentSession();
  const partner = currentPartner();
  const next = session && partner ? `${session.token}\u0000${partner}` : null;
  if (next === key) return;
  key = next;
  for (const s of streams) s.stop();
  streams = next ? [new LiveStream("assets"), new LiveStream("planning")] : [];
}

/** Starts following the session: streams run while someone is signed in with a partner chosen. */
export function startLive(): void {
  sync();
  subscribeSession(sync);
}

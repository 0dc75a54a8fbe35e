// A server-sent events reader for tests, as a dashboard reads the streams: the response body
// through a stream reader, parsed into messages (id, event, data) and comments (`: ping`).
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
  /** `data` parsed as JSON (undefined when it is not JSON). */
  json?: any;
}

export interface SseClient {
  response: Response;
  /** Every message so far, in order. */
  messages: SseMessage[];
  /** Comment lines so far (`ping` for a heartbeat). */
  comments: string[];
  /** True once the server ended the stream. */
  ended: boolean;
  /** Waits until `until` holds of what arrived (default 5 s), else throws with what did arrive. */
  waitFor(until: (c: SseClient) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  /** The domain events (messages other than ready/revoked/expired/overflow). */
  events(): SseMessage[];
  /** Stops reading (the client goes away). */
  close(): Promise<void>;
}

const CONTROL = new Set(["ready", "revoked", "expired", "overflow"]);

export function readSse(response: Response): SseClient {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const waiters = new Set<() => void>();
  const client: SseClient = {
    response,
    messages: [],
    comments: [],
    ended: false,
    async waitFor(until, timeoutMs = 5000, what = "the expected messages") {
      const deadline = Date.now() + timeoutMs;
      while (!until(client)) {
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(client.messages.map((m) => [m.id, m.event]))}, comments ${client.comments.length}, ended ${client.ended}`);
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 25);
          waiters.add(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    events: () => client.messages.filter((m) => !CONTROL.has(m.event)),
    async close() {
      await reader.cancel().catch(() => undefined);
    },
  };
  const wake = () => {
    for (const w of [...waiters]) w();
    waiters.clear();
  };
  const parse = (block: string) => {
    let id: string | undefined;
    let event = "message";
    const data: string[] = [];
    let any = false;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        client.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else continue;
      any = true;
    }
    if (!any || data.length === 0) return;
    const text = data.join("\n");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    client.messages.push({ id, event, data: text, json });
  };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buffer.indexOf("\n\n")) >= 0) {
          parse(buffer.slice(0, i));
          buffer = buffer.slice(i + 2);
        }
        wake();
      }
    } catch {
      /* cancelled */
    }
    client.ended = true;
    wake();
  })();
  return client;
}

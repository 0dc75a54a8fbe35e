// A loopback clamd speaking the real INSTREAM protocol: `zINSTREAM\0` (or
// `nINSTREAM\n`), chunks each prefixed with a 4-byte big-endian length, a zero-length
// terminator; it answers `stream: OK` or `stream: Eicar-Signature FOUND`, NUL- or
// newline-terminated as the command was; `zPING\0` answers `PONG\0`. `mode: "error"` answers as clamd does when
// a stream exceeds its StreamMaxLength.
import { createServer, type Server, type Socket } from "node:net";

export const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

export interface FakeClamd {
  host: string;
  port: number;
  /** Streams scanned so far, with the bytes each carried and how many chunks. */
  scans: Array<{ bytes: number; chunks: number }>;
  /** PING commands answered (PONG), e.g. readiness probes. */
  pings: number;
  mode: "scan" | "error";
  close(): Promise<void>;
}

export async function startFakeClamd(): Promise<FakeClamd> {
  const fake: FakeClamd = { host: "127.0.0.1", port: 0, scans: [], pings: 0, mode: "scan", close: async () => {} };
  const server: Server = createServer((socket: Socket) => {
    let buf = Buffer.alloc(0);
    let command: string | undefined;
    let terminator = "\0";
    const data: Buffer[] = [];
    let chunks = 0;
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (command === undefined) {
        const end = buf.findIndex((b) => b === 0 || b === 0x0a);
        if (end < 0) return;
        command = buf.subarray(0, end).toString("latin1");
        terminator = buf[end] === 0 ? "\0" : "\n";
        buf = buf.subarray(end + 1);
        if (command === "zPING" || command === "nPING") {
          fake.pings++;
          socket.end(`PONG${terminator}`);
          return;
        }
        if (command !== "zINSTREAM" && command !== "nINSTREAM") {
          socket.end(`UNKNOWN COMMAND${terminator}`);
          return;
        }
      }
      while (buf.length >= 4) {
        const len = buf.readUInt32BE(0);
        if (len === 0) {
          const all = Buffer.concat(data);
          fake.scans.push({ bytes: all.length, chunks });
          const reply =
            fake.mode === "error" ? "INSTREAM size limit exceeded. ERROR" : all.includes(Buffer.from(EICAR, "latin1")) ? "stream: Eicar-Signature FOUND" : "stream: OK";
          socket.end(reply + terminator);
          buf = Buffer.alloc(0);
          return;
        }
        if (buf.length < 4 + len) return;
        data.push(Buffer.from(buf.subarray(4, 4 + len)));
        chunks++;
        buf = buf.subarray(4 + len);
      }
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as { port: number }).port;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

// clamd's INSTREAM command over TCP: `zINSTREAM\0`, then chunks each prefixed with
// its length as a 4-byte big-endian integer, then a zero length; clamd answers one
// NUL-terminated line, `stream: OK` or `stream: <signature> FOUND` (else an ERROR).
import { connect, type Socket } from "node:net";

export type ClamdVerdict = { clean: true } | { clean: false; signature: string };

/** clamd answered with an error, or the connection failed: the scan could not decide. */
export class ScannerError extends Error {
  override readonly name = "ScannerError";
}

/** clamd's default StreamMaxLength is 25 MiB; chunks stay well under it. */
const CHUNK = 64 * 1024;
const MAX_REPLY = 4096;

/** Streams `bytes` to clamd and returns its verdict; any failure is a ScannerError. */
export async function scanWithClamd(
  server: { host: string; port: number },
  bytes: AsyncIterable<Uint8Array>,
  timeoutMs = 60_000,
): Promise<ClamdVerdict> {
  const socket = connect({ host: server.host, port: server.port });
  socket.setNoDelay(true);
  let reply = "";
  const replied = new Promise<string>((resolve, reject) => {
    socket.on("data", (d: Buffer) => {
      reply += d.toString("latin1");
      const nul = reply.indexOf("\0");
      if (nul >= 0) resolve(reply.slice(0, nul));
      else if (reply.length > MAX_REPLY) reject(new ScannerError("clamd reply too long"));
    });
    socket.on("end", () => resolve(reply.replace(/\0.*$/s, "")));
    socket.on("error", (e) => reject(new ScannerError(`clamd connection failed (${(e as NodeJS.ErrnoException).code ?? "error"})`)));
    socket.setTimeout(timeoutMs, () => reject(new ScannerError("clamd timed out")));
  });
  replied.catch(() => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      replied.catch(reject);
    });
    await write(socket, Buffer.from("zINSTREAM\0", "latin1"));
    for await (const piece of bytes) {
      for (let off = 0; off < piece.byteLength; off += CHUNK) {
        const part = piece.subarray(off, Math.min(piece.byteLength, off + CHUNK));
        const len = Buffer.alloc(4);
        len.writeUInt32BE(part.byteLength);
        await write(socket, len);
        await write(socket, part);
      }
    }
    await write(socket, Buffer.alloc(4));
    const line = (await replied).trim();
    const found = /^stream: (.+) FOUND$/.exec(line);
    if (found) return { clean: false, signature: found[1]! };
    if (line === "stream: OK") return { clean: true };
    throw new ScannerError(`clamd answered ${JSON.stringify(line.slice(0, 200))}`);
  } catch (err) {
    // clamd closes the connection when it refuses a stream (size limit): report that reply.
    if (err instanceof ScannerError) throw err;
    throw new ScannerError(`clamd scan failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).name})`);
  } finally {
    socket.destroy();
  }
}

function write(socket: Socket, data: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return reject(new ScannerError("clamd closed the connection"));
    socket.write(data, (err) => (err ? reject(err) : resolve()));
  });
}

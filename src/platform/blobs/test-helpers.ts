/** Small stream helpers shared by the blob-store tests (test-only). */

export function streamOf(data: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let off = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (off >= data.length) {
        controller.close();
        return;
      }
      controller.enqueue(data.slice(off, off + chunk));
      off += chunk;
    },
  });
}

/** Emits `okChunks` chunks then errors with `err`. */
export function failingStream(okChunks: number, err: Error, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let n = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (n++ < okChunks) controller.enqueue(new Uint8Array(chunk).fill(n));
      else controller.error(err);
    },
  });
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of stream) parts.push(p);
  return new Uint8Array(Buffer.concat(parts));
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

// Small README screenshots: Chromium writes truecolour PNGs (a text-heavy 1280×800 page is
// 150–180 kB); the same picture with a palette of at most 256 colours is a third of that and
// looks the same (a UI has few colours beyond its text's anti-aliasing). Lossless when the
// picture has 256 colours or fewer; otherwise a median-cut palette over a 15-bit histogram.
// Only for the PNGs Chromium writes: 8-bit RGB or RGBA, not interlaced.
import { deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface Rgb {
  width: number;
  height: number;
  /** width × height × 3 bytes. */
  pixels: Uint8Array;
}

function decode(png: Uint8Array): Rgb {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (!SIGNATURE.every((b, i) => png[i] === b)) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 3);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = (line[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x++) out.set(cur.subarray(x * channels, x * channels + 3), (y * width + x) * 3);
    prev = cur;
  }
  return { width, height, pixels: out };
}

type Colour = [number, number, number, number]; // r, g, b, pixel count

/** Median cut: split the box with the most pixels × widest channel at its weighted median. */
function medianCut(colours: Colour[], size: number): Array<[number, number, number]> {
  const boxes: Colour[][] = [colours];
  const spread = (box: Colour[]) => {
    let best = { channel: 0, range: -1 };
    for (let ch = 0; ch < 3; ch++) {
      let lo = 255;
      let hi = 0;
      for (const c of box) {
        lo = Math.min(lo, c[ch]!);
        hi = Math.max(hi, c[ch]!);
      }
      if (hi - lo > best.range) best = { channel: ch, range: hi - lo };
    }
    return best;
  };
  const weight = (box: Colour[]) => box.reduce((n, c) => n + c[3], 0);
  while (boxes.length < size) {
    let pick = -1;
    let score = 0;
    for (let i = 0; i < boxes.length; i++) {
      const box = boxes[i]!;
      if (box.length < 2) continue;
      const s = spread(box).range * Math.sqrt(weight(box));
      if (s > score) [pick, score] = [i, s];
    }
    if (pick < 0) break;
    const box = boxes[pick]!;
    const { channel } = spread(box);
    box.sort((a, b) => a[channel]! - b[channel]!);
    const half = weight(box) / 2;
    let acc = 0;
    let cut = 1;
    for (; cut < box.length - 1; cut++) {
      acc += box[cut - 1]![3];
      if (acc >= half) break;
    }
    boxes.splice(pick, 1, box.slice(0, cut), box.slice(cut));
  }
  return boxes.map((box) => {
    const w = weight(box);
    const mean = (ch: number) => Math.round(box.reduce((n, c) => n + c[ch]! * c[3], 0) / w);
    return [mean(0), mean(1), mean(2)];
  });
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The picture as an 8-bit palette PNG (colour type 3). */
export function palettePng(png: Uint8Array): Uint8Array {
  const { width, height, pixels } = decode(png);
  const exact = new Map<number, number>();
  for (let i = 0; i < pixels.length && exact.size <= 256; i += 3) {
    const key = (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!;
    if (!exact.has(key)) exact.set(key, exact.size);
  }
  let palette: Array<[number, number, number]>;
  let indexOf: (r: number, g: number, b: number) => number;
  if (exact.size <= 256) {
    palette = [...exact.keys()].map((k) => [k >> 16, (k >> 8) & 0xff, k & 0xff]);
    indexOf = (r, g, b) => exact.get((r << 16) | (g << 8) | b)!;
  } else {
    // A 15-bit histogram (each bucket at its pixels' mean colour), cut to 256 colours.
    const sums = new Float64Array(32768 * 4);
    for (let i = 0; i < pixels.length; i += 3) {
      const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
      const k = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
      sums[k * 4]! += r;
      sums[k * 4 + 1]! += g;
      sums[k * 4 + 2]! += b;
      sums[k * 4 + 3]! += 1;
    }
    const colours: Colour[] = [];
    const buckets: number[] = [];
    for (let k = 0; k < 32768; k++) {
      const n = sums[k * 4 + 3]!;
      if (n === 0) continue;
      colours.push([sums[k * 4]! / n, sums[k * 4 + 1]! / n, sums[k * 4 + 2]! / n, n]);
      buckets.push(k);
    }
    palette = medianCut([...colours], 256); // a copy: the cut sorts its boxes in place
    const nearest = new Int16Array(32768).fill(-1);
    colours.forEach((c, i) => {
      let best = 0;
      let dist = Infinity;
      palette.forEach((p, j) => {
        const d = (p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2;
        if (d < dist) [best, dist] = [j, d];
      });
      nearest[buckets[i]!] = best;
    });
    indexOf = (r, g, b) => nearest[((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)]!;
  }
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[y * (width + 1) + 1 + x] = indexOf(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!);
    }
  }
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = new Uint8Array(palette.length * 3);
  palette.forEach((p, i) => plte.set(p, i * 3));
  const parts = [SIGNATURE, chunk("IHDR", header), chunk("PLTE", plte), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", new Uint8Array(0))];
  return Buffer.concat(parts);
}

// The ISO-8601 text of an instant, formatted once per millisecond: a busy server stamps
// dozens of requests and log lines within one.
let lastMs = Number.NaN;
let lastIso = "";

export function isoText(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

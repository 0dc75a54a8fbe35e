// Structured JSON log lines on stderr. Callers pass facts, never secrets or bodies.
import { writeSync } from "node:fs";
import { isoText } from "./iso-text.ts";
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Where each JSON line goes (default: stderr). Tests capture lines in memory with it. */
  write?: (line: string) => void;
}

/**
 * Lines to stderr, written together once per event-loop turn: a busy server logs a line
 * per request, and one write call per turn instead of one per line (a system call each)
 * was a measurable share of a cheap request. Lines still pending when the process exits
 * are written synchronously then.
 */
let pending = "";
let flushing = false;
let exitHooked = false;

function flushStderr(): void {
  flushing = false;
  if (pending === "") return;
  const out = pending;
  pending = "";
  process.stderr.write(out);
}

function writeStderr(line: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      if (pending !== "") writeSync(2, pending);
      pending = "";
    });
  }
  if (!flushing) {
    flushing = true;
    setImmediate(flushStderr);
  }
  pending += line + "\n";
  if (pending.length >= 65_536) flushStderr();
}

export function createLogger(level: LogLevel, opts: LoggerOptions = {}): Logger {
  const min = ORDER[level];
  const write = opts.write ?? writeStderr;
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    if (fields && (Object.hasOwn(fields, "t") || Object.hasOwn(fields, "level") || Object.hasOwn(fields, "msg"))) {
      write(JSON.stringify({ t: isoText(Date.now()), level: lvl, msg, ...fields }));
      return;
    }
    // The same line without spreading the fields into a new object (a line per request).
    const rest = fields === undefined ? "}" : JSON.stringify(fields);
    write(`{"t":"${isoText(Date.now())}","level":"${lvl}","msg":${JSON.stringify(msg)}${rest.length > 2 ? "," + rest.slice(1) : "}"}`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

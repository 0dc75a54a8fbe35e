// The project timeline: a Gantt-style chart of our own in SVG. One row per scheduled work
// item, a bar from startsAt to dueAt (a diamond when only one of them is set), a time axis
// in the project's time zone, a "today" line, and the dependency arrows between the bars —
// each kind with its own dash pattern and its abbreviation written on the arrow, never told
// by colour alone.
//
// Keyboard and screen reader: the chart is one group whose bars are focusable images (one
// tab stop: Tab enters at the current bar; the arrow keys, Home and End move between bars).
// Each bar's accessible name carries its details — state, times, what it depends on and what
// depends on it — and the focused bar's details are also shown as text under the chart. The
// same data follows as tables (the page's), so nothing is only in the picture.
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { humanize } from "../../components/badge.tsx";
import { formatInstant, formatMinutes, startOfZonedDay, zonedParts } from "./format.ts";

export type DependencyKind = "finish_to_start" | "start_to_start" | "finish_to_finish" | "start_to_finish";

export interface GanttItem {
  id: string;
  title: string;
  startsAt: string | null;
  dueAt: string | null;
  state: string;
  assigneeUserId: string | null;
}

export interface GanttLink {
  fromId: string;
  toId: string;
  kind: DependencyKind;
  lagMinutes: number;
}

export const KIND_TEXT: Record<DependencyKind, string> = {
  finish_to_start: "finish to start",
  start_to_start: "start to start",
  finish_to_finish: "finish to finish",
  start_to_finish: "start to finish",
};
export const KIND_ABBR: Record<DependencyKind, string> = { finish_to_start: "FS", start_to_start: "SS", finish_to_finish: "FF", start_to_finish: "SF" };
/** What each kind means, for the legend and the form. */
export const KIND_MEANING: Record<DependencyKind, string> = {
  finish_to_start: "the successor starts after the predecessor finishes",
  start_to_start: "the successor starts after the predecessor starts",
  finish_to_finish: "the successor finishes after the predecessor finishes",
  start_to_finish: "the successor finishes after the predecessor starts",
};
const KIND_DASH: Record<DependencyKind, string> = { finish_to_start: "", start_to_start: "7 4", finish_to_finish: "2 3", start_to_finish: "10 3 2 3" };

/** "Stage build (finish to start, lag 2 h)". */
export function describeLink(title: string, l: GanttLink): string {
  return `${title} (${KIND_TEXT[l.kind]}${l.lagMinutes ? `, ${l.lagMinutes > 0 ? "lag" : "lead"} ${formatMinutes(Math.abs(l.lagMinutes))}` : ""})`;
}

const ROW = 34;
const BAR = 18;
const HEAD = 46;
const LABEL_W = 210;
const PAD_RIGHT = 24;
const DAY = 86_400_000;

const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

interface Row {
  item: GanttItem;
  y: number;
  x1: number;
  x2: number;
  milestone: boolean;
}

interface Tick {
  x: number;
  label: string;
}

export interface GanttLayout {
  rows: Row[];
  ticks: Tick[];
  arrows: Array<{ d: string; kind: DependencyKind; lx: number; ly: number; key: string }>;
  today: number | null;
  width: number;
  height: number;
}

/** Where everything goes, from the data, the zone and the width (pure: no DOM). */
export function layoutGantt(items: readonly GanttItem[], links: readonly GanttLink[], timeZone: string, width: number, now = Date.now()): GanttLayout {
  const scheduled = items
    .filter((i) => i.startsAt || i.dueAt)
    .sort((a, b) => (ms(a.startsAt) ?? ms(a.dueAt)!) - (ms(b.startsAt) ?? ms(b.dueAt)!) || a.title.localeCompare(b.title));
  const times = scheduled.flatMap((i) => [ms(i.startsAt), ms(i.dueAt)]).filter((t): t is number => t !== null);
  let lo = times.length ? Math.min(...times) : now;
  let hi = times.length ? Math.max(...times) : now + 7 * DAY;
  if (hi - lo < DAY) hi = lo + DAY;
  lo = startOfZonedDay(lo, timeZone);
  // The axis runs from the midnight before the first time to the midnight after the last.
  const hiDay = startOfZonedDay(hi, timeZone);
  hi = hiDay === hi ? hi : startOfZonedDay(hiDay + DAY * 1.5, timeZone);
  const span = hi - lo;
  const plot = Math.max(width - LABEL_W - PAD_RIGHT, 120);
  const x = (t: number) => LABEL_W + ((t - lo) / span) * plot;

  const rows: Row[] = scheduled.map((item, i) => {
    const s = ms(item.startsAt);
    const d = ms(item.dueAt);
    const x1 = x(s ?? d!);
    const x2 = x(d ?? s!);
    return { item, y: HEAD + i * ROW + ROW / 2, x1, x2, milestone: s === null || d === null };
  });

  // Ticks: days for up to ten days, Mondays up to ten weeks, else the first of each month.
  const days = span / DAY;
  const ticks: Tick[] = [];
  const dayLabel = new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", day: "numeric", month: "short" });
  const weekLabel = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short" });
  const monthLabel = new Intl.DateTimeFormat("en-GB", { timeZone, month: "short", year: "numeric" });
  for (let t = lo; t <= hi; t = startOfZonedDay(t + DAY * 1.5, timeZone)) {
    const p = zonedParts(t, timeZone);
    // A label needs about 80 px: one that would run off the right edge is left out.
    if (x(t) > width - 80) continue;
    if (days <= 10) ticks.push({ x: x(t), label: dayLabel.format(t) });
    else if (days <= 70 ? p.weekday === 1 : p.day === 1) ticks.push({ x: x(t), label: days <= 70 ? weekLabel.format(t) : monthLabel.format(t) });
  }

  const byId = new Map(rows.map((r) => [r.item.id, r]));
  const arrows: GanttLayout["arrows"] = [];
  for (const l of links) {
    const from = byId.get(l.fromId);
    const to = byId.get(l.toId);
    if (!from || !to) continue;
    const fx = l.kind.startsWith("start") ? from.x1 : from.x2;
    const tx = l.kind.endsWith("start") ? to.x1 : to.x2;
    const out = 10;
    let d: string;
    if (tx - fx >= 2 * out) {
      d = `M${fx},${from.y} H${fx + out} V${to.y} H${tx - 1}`;
    } else {
      // Backwards: leave to the right, run along the gap between the rows, enter from the left.
      const gap = to.y + (to.y > from.y ? -ROW / 2 : ROW / 2);
      d = `M${fx},${from.y} H${fx + out} V${gap} H${tx - out} V${to.y} H${tx - 1}`;
    }
    arrows.push({ d, kind: l.kind, lx: fx + out + 3, ly: (from.y + to.y) / 2 + 4, key: `${l.fromId}>${l.toId}` });
  }

  return { rows, ticks, arrows, today: now >= lo && now <= hi ? x(now) : null, width: Math.max(width, LABEL_W + 120 + PAD_RIGHT), height: HEAD + Math.max(rows.length, 1) * ROW + 8 };
}

/** A bar's accessible name: everything the picture shows about it, in words. */
export function describeItem(item: GanttItem, links: readonly GanttLink[], titleOf: (id: string) => string, timeZone: string): string {
  const when = [
    item.startsAt ? `starts ${formatInstant(item.startsAt, timeZone)}` : "no start",
    item.dueAt ? `due ${formatInstant(item.dueAt, timeZone)}` : "no due time",
  ].join(", ");
  const after = links.filter((l) => l.toId === item.id).map((l) => describeLink(titleOf(l.fromId), l));
  const before = links.filter((l) => l.fromId === item.id).map((l) => describeLink(titleOf(l.toId), l));
  return [
    `${item.title}: ${humanize(item.state).toLowerCase()}, ${when}`,
    item.assigneeUserId ? `assigned to ${item.assigneeUserId}` : "unassigned",
    after.length ? `depends on ${after.join("; ")}` : "depends on nothing",
    before.length ? `needed by ${before.join("; ")}` : "nothing depends on it",
  ].join(". ") + ".";
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

export function Gantt({ items, links, timeZone, caption }: { items: readonly GanttItem[]; links: readonly GanttLink[]; timeZone: string; caption: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(960);
  const [active, setActive] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  const bars = useRef(new Map<string, SVGGElement>());
  const captionId = useId();
  const helpId = useId();
  const markerId = useId().replace(/[^a-zA-Z0-9_-]/g, "");

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(el.clientWidth, 480));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const layout = useMemo(() => layoutGantt(items, links, timeZone, width), [items, links, timeZone, width]);
  const titles = useMemo(() => new Map(items.map((i) => [i.id, i.title])), [items]);
  const titleOf = (id: string) => titles.get(id) ?? "a work item not listed";
  const order = layout.rows.map((r) => r.item.id);
  const current = active && order.includes(active) ? active : (order[0] ?? null);
  const currentRow = layout.rows.find((r) => r.item.id === current);

  const move = (to: string | undefined) => {
    if (!to) return;
    setActive(to);
    bars.current.get(to)?.focus();
  };
  const onKey = (e: KeyboardEvent, id: string) => {
    const i = order.indexOf(id);
    const next: Record<string, string | undefined> = {
      ArrowDown: order[Math.min(i + 1, order.length - 1)],
      ArrowRight: order[Math.min(i + 1, order.length - 1)],
      ArrowUp: order[Math.max(i - 1, 0)],
      ArrowLeft: order[Math.max(i - 1, 0)],
      Home: order[0],
      End: order[order.length - 1],
    };
    if (e.key in next) {
      e.preventDefault();
      move(next[e.key]);
    }
  };

  if (layout.rows.length === 0) {
    return <p class="muted">No work item has a start or due time yet, so the timeline is empty. The table below lists the work.</p>;
  }

  return (
    <figure class="gantt">
      <figcaption id={captionId}>{caption}</figcaption>
      <p id={helpId} class="hint">
        Times are in {timeZone}. Tab to the chart, then use the arrow keys (Home, End) to move between the bars; each bar reads out its times and dependencies. Arrows run from a
        predecessor to its successor; the letters on them name the kind: FS finish to start, SS start to start, FF finish to finish, SF start to finish.
      </p>
      <div ref={box} class="gantt-frame">
        <svg role="group" aria-labelledby={captionId} aria-describedby={helpId} width={layout.width} height={layout.height} class="gantt-svg">
          <defs>
            <marker id={`${markerId}-head`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill="#3a414a" />
            </marker>
          </defs>
          <g aria-hidden="true">
            <rect x={0} y={0} width={layout.width} height={HEAD - 6} fill="#f4f6f8" />
            {layout.ticks.map((t) => (
              <g>
                <line x1={t.x} x2={t.x} y1={HEAD - 14} y2={layout.height} stroke="#d5dae0" />
                <text x={t.x + 3} y={HEAD - 18} font-size="12" fill="#1a1a1a">
                  {t.label}
                </text>
              </g>
            ))}
            <line x1={LABEL_W} x2={LABEL_W} y1={0} y2={layout.height} stroke="#8a94a0" />
            <line x1={0} x2={layout.width} y1={HEAD - 6} y2={HEAD - 6} stroke="#8a94a0" />
            <text x={8} y={HEAD - 18} font-size="12" font-weight="600" fill="#1a1a1a">
              Work item
            </text>
            <text x={LABEL_W - 8} y={HEAD - 18} font-size="12" font-weight="600" fill="#1a1a1a" text-anchor="end">
              State
            </text>

            {layout.today !== null ? (
              <g>
                <line x1={layout.today} x2={layout.today} y1={HEAD - 6} y2={layout.height} stroke="#a3261e" stroke-width="2" stroke-dasharray="4 3" />
                <text x={layout.today + 3} y={HEAD + 10} font-size="11" fill="#a3261e" stroke="#ffffff" stroke-width="3" paint-order="stroke">
                  Today
                </text>
              </g>
            ) : null}
          </g>
          {layout.rows.map((r) => {
            const id = r.item.id;
            const isCurrent = id === current;
            const label = describeItem(r.item, links, titleOf, timeZone);
            const stateText = humanize(r.item.state);
            return (
              <g
                key={id}
                ref={(el) => {
                  if (el) bars.current.set(id, el);
                  else bars.current.delete(id);
                }}
                role="img"
                aria-label={label}
                tabIndex={isCurrent ? 0 : -1}
                class="gantt-bar"
                data-id={id}
                onFocus={() => {
                  setActive(id);
                  setFocused(true);
                }}
                onBlur={() => setFocused(false)}
                onKeyDown={(e) => onKey(e as unknown as KeyboardEvent, id)}
                onClick={() => move(id)}
              >
                <rect x={0} y={r.y - ROW / 2} width={layout.width} height={ROW} fill={isCurrent && focused ? "#e2ecf7" : "transparent"} />
                <text x={8} y={r.y + 4} font-size="13" fill="#1a1a1a">
                  {truncate(r.item.title, 20)}
                </text>
                <text x={LABEL_W - 8} y={r.y + 4} font-size="11" fill="#3a414a" text-anchor="end">
                  {stateText}
                </text>
                {r.milestone ? (
                  <path d={`M${r.x1},${r.y - 8} L${r.x1 + 8},${r.y} L${r.x1},${r.y + 8} L${r.x1 - 8},${r.y} z`} fill="#1f5fa8" stroke="#164a85" />
                ) : (
                  <rect x={r.x1} y={r.y - BAR / 2} width={Math.max(r.x2 - r.x1, 3)} height={BAR} rx={3} fill="#1f5fa8" stroke="#164a85" />
                )}
                {isCurrent && focused ? (
                  <rect x={Math.min(r.x1, r.x2) - 12} y={r.y - BAR / 2 - 5} width={Math.abs(r.x2 - r.x1) + 24} height={BAR + 10} fill="none" stroke="#c2410c" stroke-width="3" rx={4} />
                ) : null}
              </g>
            );
          })}
          <g aria-hidden="true">
            {layout.arrows.map((a) => (
              <g key={a.key}>
                <path d={a.d} fill="none" stroke="#3a414a" stroke-width="1.6" stroke-dasharray={KIND_DASH[a.kind] || undefined} marker-end={`url(#${markerId}-head)`} />
                <text x={a.lx} y={a.ly} font-size="10" font-weight="700" fill="#1a1a1a" stroke="#ffffff" stroke-width="3" paint-order="stroke">
                  {KIND_ABBR[a.kind]}
                </text>
              </g>
            ))}
          </g>
        </svg>
      </div>
      <ul class="gantt-legend" aria-label="Dependency kinds">
        {(Object.keys(KIND_TEXT) as DependencyKind[]).map((k) => (
          <li>
            <svg width="36" height="10" aria-hidden="true">
              <line x1="0" y1="5" x2="36" y2="5" stroke="#3a414a" stroke-width="2" stroke-dasharray={KIND_DASH[k] || undefined} />
            </svg>
            <strong>{KIND_ABBR[k]}</strong> {KIND_TEXT[k]}: {KIND_MEANING[k]}
          </li>
        ))}
      </ul>
      <p class="gantt-details" aria-hidden="true">
        {currentRow ? describeItem(currentRow.item, links, titleOf, timeZone) : null}
      </p>
    </figure>
  );
}

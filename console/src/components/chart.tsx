// A chart that is never the only way to the numbers: uPlot draws it on a canvas (small, fast,
// well kept), the canvas is one labelled image to assistive technology, and the same values
// follow as a data table with a caption. Series differ by dash pattern and by their text
// label, not by colour alone; colours keep 3:1 against the background (WCAG 1.4.11).
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { DataTable, type Column } from "./data-table.tsx";

export interface ChartSeries {
  label: string;
  values: ReadonlyArray<number | null>;
}

export interface ChartProps {
  title: string;
  /** Bars over categories, or lines over a numeric (or time) x axis. */
  kind: "bar" | "line";
  /** Category names (bar) or x values (line; epoch seconds when `time`). */
  x: ReadonlyArray<string | number>;
  xLabel: string;
  time?: boolean;
  series: readonly ChartSeries[];
  /** Formats a value for the axis and the table (default: grouped integer/decimal). */
  format?: (v: number) => string;
  /** Formats an x value in the table (default: the label, or the date for `time`). */
  formatX?: (x: string | number) => string;
  height?: number;
}

/** Dark enough on white (≥ 3:1) and told apart by dashes too. */
const COLOURS = ["#1f5fa8", "#a33f00", "#2d6a2e", "#6b3fa0", "#8a1c4a"];
const DASHES: number[][] = [[], [8, 4], [2, 3], [12, 3, 2, 3], [4, 4]];

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function Chart({ title, kind, x, xLabel, time, series, format = (v) => numberFormat.format(v), formatX, height = 240 }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const fmtX = formatX ?? ((v: string | number) => (time && typeof v === "number" ? new Date(v * 1000).toISOString().slice(0, 10) : String(v)));

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = kind === "bar" ? x.map((_, i) => i) : (x as number[]);
    const data = [xs, ...series.map((s) => s.values.map((v) => (v === null ? null : v)))] as unknown as uPlot.AlignedData;
    const bars = uPlot.paths.bars!({ size: [0.6, 80], align: 0 });
    const integers = series.every((s) => s.values.every((v) => v === null || Number.isInteger(v)));
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 280),
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: kind === "bar" ? { time: false, range: [-0.5, x.length - 0.5] } : { time: Boolean(time) } },
      axes: [
        {
          stroke: "#1a1a1a",
          grid: { show: false },
          ...(kind === "bar" ? { splits: () => x.map((_, i) => i), values: (_u: uPlot, splits: number[]) => splits.map((i) => String(x[i] ?? "")) } : {}),
          // Many categories: slanted names, so neighbours do not overlap.
          ...(kind === "bar" && x.length > 4 ? { rotate: 30, align: 2 as const, size: 80 } : {}),
        },
        {
          stroke: "#1a1a1a",
          grid: { stroke: "#d0d0d0", width: 1 },
          // Counts get whole-number ticks only.
          ...(integers ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000] } : {}),
          values: (_u: uPlot, splits: number[]) => splits.map(format),
          // Wide enough for the longest label ("36,000.00"): uPlot's fixed 50px cut amounts off.
          size: (_u: uPlot, values: string[] | null) => Math.max(50, 16 + 8 * Math.max(0, ...(values ?? []).map((v) => v.length))),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          dash: kind === "line" ? DASHES[i % DASHES.length] : undefined,
          fill: kind === "bar" ? COLOURS[i % COLOURS.length] : undefined,
          paths: kind === "bar" ? bars : undefined,
          points: { show: kind === "line" && x.length <= 40 },
        })),
      ],
    };
    const plot = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [kind, JSON.stringify(x), JSON.stringify(series), height, time]);

  const rows = x.map((xv, i) => ({ i, xv }));
  const columns: Column<{ i: number; xv: string | number }>[] = [
    { header: xLabel, cell: (r) => fmtX(r.xv), rowHeader: true },
    ...series.map((s) => ({ header: s.label, align: "end" as const, cell: (r: { i: number }) => (s.values[r.i] === null || s.values[r.i] === undefined ? "—" : format(s.values[r.i]!)) })),
  ];
  const described = series.map((s, i) => `${s.label}${kind === "line" && series.length > 1 ? ` (${i === 0 ? "solid" : "dashed"} line)` : ""}`).join(", ");
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={`${kind === "bar" ? "Bar" : "Line"} chart of ${described} by ${xLabel.toLowerCase()}. The table below lists every value.`} />
      {series.length > 1 ? (
        <ul class="chart-legend" aria-hidden="true">
          {series.map((s, i) => (
            <li>
              <svg width="28" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="28" y2="5" stroke={COLOURS[i % COLOURS.length]} stroke-width="3" stroke-dasharray={(kind === "line" ? DASHES[i % DASHES.length]! : []).join(" ")} />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      <DataTable caption={`${title} (table)`} columns={columns} rows={rows} rowKey={(r) => String(r.i)} />
    </figure>
  );
}

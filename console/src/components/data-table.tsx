// A data table: a caption naming it, column headers with scope="col", and a row header
// (scope="row") naming each row, so a screen reader reads "Name, Cordless drill, Lifecycle, Active".
import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** This column's cell names the row (one per table, usually the first). */
  rowHeader?: boolean;
  align?: "start" | "end";
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty = "Nothing to show.",
  captionHidden = false,
}: {
  caption: ComponentChildren;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  empty?: string;
  /** Keep the caption for assistive technology only (a visible heading already names the table). */
  captionHidden?: boolean;
}) {
  const captionId = useId();
  // A wide table scrolls sideways inside its frame: the frame is focusable (arrow keys scroll it) and named by the caption.
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table>
        <caption id={captionId} class={captionHidden ? "visually-hidden" : undefined}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.align === "end" ? "num" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="muted">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) =>
                  c.rowHeader ? (
                    <th scope="row" class={c.align === "end" ? "num" : undefined}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td class={c.align === "end" ? "num" : undefined}>{c.cell(row)}</td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

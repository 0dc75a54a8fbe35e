// A state shown as text (never by colour alone); the colour and the marker only repeat it.
const TONES: Record<string, "good" | "warn" | "bad" | "info" | "neutral"> = {
  active: "good", available: "good", completed: "good", clean: "good", received: "good", posted: "good", applied: "good", published: "good", enabled: "good", returned: "good", released: "good", approved: "good",
  pending: "info", planned: "info", open: "info", draft: "info", submitted: "info", reserved: "info", in_review: "info", counting: "info", assigned: "info", in_progress: "info", dispatched: "info", in_transit: "info", checked_out: "info", concept: "info",
  in_maintenance: "warn", on_hold: "warn", paused: "warn", overdue: "warn", exception: "warn", failing: "warn", conflicted: "warn", quarantined: "bad", failed: "bad", rejected: "bad", cancelled: "neutral", disabled: "neutral", retired: "neutral", disposed: "neutral", consumed: "neutral", unavailable: "neutral", superseded: "neutral", archived: "neutral",
};

export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function Badge({ value, label }: { value: string; label?: string }) {
  const tone = TONES[value] ?? "neutral";
  return (
    <span class={`badge badge-${tone}`}>
      <span class="badge-mark" aria-hidden="true" />
      {label ?? humanize(value)}
    </span>
  );
}

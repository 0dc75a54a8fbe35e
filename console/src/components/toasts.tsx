// Toasts: outcomes announced politely (role="status": a screen reader reads them after what
// it is reading). Each stays until dismissed or for 10 seconds, and is also text, never colour alone.
import { useEffect, useState } from "preact/hooks";

export interface Toast {
  id: number;
  message: string;
  tone: "success" | "error" | "info";
}

let next = 1;
let toasts: Toast[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function toast(message: string, tone: Toast["tone"] = "success"): void {
  const t = { id: next++, message, tone };
  toasts = [...toasts, t];
  emit();
  setTimeout(() => dismiss(t.id), 10_000);
}

function dismiss(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

const PREFIX: Record<Toast["tone"], string> = { success: "Done: ", error: "Failed: ", info: "" };

export function Toaster() {
  const [list, setList] = useState(toasts);
  useEffect(() => {
    const l = () => setList(toasts);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} class={`toast toast-${t.tone}`}>
          <p>
            <strong>{PREFIX[t.tone]}</strong>
            {t.message}
          </p>
          <button type="button" class="button button-quiet" onClick={() => dismiss(t.id)}>
            Dismiss<span class="visually-hidden"> notification</span>
          </button>
        </div>
      ))}
    </div>
  );
}

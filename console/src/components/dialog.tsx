// A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert
// (focus stays inside), Escape closes it, it is labelled by its heading, and closing it
// returns focus to the control that opened it.
import type { ComponentChildren } from "preact";
import { useEffect, useId, useLayoutEffect, useRef } from "preact/hooks";

export function Dialog({ open, title, onClose, children, describedBy }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; describedBy?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const headingId = useId();

  // A layout effect: the modal opens and closes in the same render as its content, so the
  // page is never inert behind a dialog that already looks closed (a click or typing there
  // went nowhere until the next frame).
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
      // The first field, else the heading: the user hears what the dialog is for.
      const first = d.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea");
      (first ?? d.querySelector<HTMLElement>("h2"))?.focus();
    } else if (!open && d.open) {
      d.close();
    }
  }, [open]);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const onCancel = (e: Event) => {
      e.preventDefault();
      onClose();
    };
    const onClosed = () => {
      const o = opener.current as HTMLElement | null;
      if (o && document.contains(o)) o.focus();
    };
    d.addEventListener("cancel", onCancel);
    d.addEventListener("close", onClosed);
    return () => {
      d.removeEventListener("cancel", onCancel);
      d.removeEventListener("close", onClosed);
    };
  }, [onClose]);

  return (
    <dialog ref={ref} aria-labelledby={headingId} aria-describedby={describedBy} class="dialog">
      {open ? (
        <>
          <div class="dialog-head">
            <h2 id={headingId} tabIndex={-1}>
              {title}
            </h2>
            <button type="button" class="button button-quiet" onClick={onClose}>
              Close<span class="visually-hidden"> dialog</span>
            </button>
          </div>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

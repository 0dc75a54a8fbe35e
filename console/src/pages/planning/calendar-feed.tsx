// The project's calendar for the caller: the iCalendar export (meetings and due work), and a
// private subscription URL for calendar apps — issued here, shown once with a copy button
// (only its digest is stored), replaced by issuing again, ended by revoking.
//
// The export needs the bearer token, so it cannot be a plain link (a browser or a calendar
// app opening it sends no Authorization header): the console fetches it through the client
// and hands the file to the browser as a download. The subscription URL is what calendar
// apps use.
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { describeProblem, isProblem } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { ActionButton, ConfirmButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import type { Workspace } from "./project-frame.tsx";

type Feed = PlanningSchemas["CalendarFeed"];

/** A safe file name from the project's name. */
function fileName(name: string): string {
  return `${name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").toLowerCase() || "project"}.ics`;
}

export function CalendarFeedPanel({ project }: { project: Workspace }) {
  const [shown, setShown] = useState<Feed | null>(null);
  const [downloading, setDownloading] = useState(false);
  const issue = useAction<Feed>();
  const revoke = useAction<unknown>();
  const projectId = project.id;

  const download = async () => {
    setDownloading(true);
    try {
      const r = await planning.GET("/projects/{projectId}/calendar.ics", { params: { path: { projectId } }, parseAs: "text" });
      if (r.error !== undefined || !r.response.ok || typeof r.data !== "string") {
        toast(describeProblem(isProblem(r.error) ? r.error : undefined, r.response.status), "error");
        return;
      }
      const url = URL.createObjectURL(new Blob([r.data], { type: "text/calendar" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = fileName(project.name);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast(`Downloaded ${a.download}.`, "info");
    } catch {
      toast("The service could not be reached. Try again.", "error");
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="calendar-heading" class="panel">
      <h2 id="calendar-heading">Calendar</h2>
      <p>The project's meetings and due work as iCalendar (RFC 5545), for you.</p>
      <div class="button-row">
        <ActionButton op={op("planning", "GET /projects/{projectId}/calendar.ics")} pending={downloading} onClick={() => void download()}>
          Download calendar (.ics)
        </ActionButton>
        <ActionButton
          op={op("planning", "POST /projects/{projectId}/calendar-feed")}
          pending={issue.pending}
          onClick={async () => {
            const r = await issue.run((headers) => planning.POST("/projects/{projectId}/calendar-feed", { params: { path: { projectId } }, headers }));
            if (r.ok) setShown(r.data);
            else toast(r.message, "error");
          }}
        >
          Issue subscription URL
        </ActionButton>
        <ConfirmButton
          op={op("planning", "DELETE /projects/{projectId}/calendar-feed")}
          label="Revoke subscription URL"
          title="Revoke your calendar subscription URL?"
          message={<p>Calendar apps subscribed with it stop receiving this project's calendar at once.</p>}
          confirmLabel="Revoke URL"
          onConfirm={async () => {
            const r = await revoke.run((headers) => planning.DELETE("/projects/{projectId}/calendar-feed", { params: { path: { projectId } }, headers }));
            if (r.ok) toast("Revoked your calendar subscription URL.");
            else toast(r.problem?.status === 404 ? "You have no subscription URL for this project." : r.message, r.problem?.status === 404 ? "info" : "error");
          }}
        />
      </div>
      <p class="hint">
        Issuing a URL replaces the one you had. The service keeps only a digest of it, so it cannot show it again: store it in your calendar app right away.
      </p>
      <Dialog open={shown !== null} title="Your calendar subscription URL (shown once)" onClose={() => setShown(null)}>
        <p>
          Anyone holding this URL reads <strong>{project.name}</strong>'s calendar as you. Add it to your calendar app now: it is not shown again.
        </p>
        <Field label="Subscription URL" name="feedUrl" readOnly value={shown?.url ?? ""} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <div class="button-row">
          <button
            type="button"
            class="button"
            onClick={() => {
              const refused = () => toast("Copying is not allowed here: select the field and copy.", "error");
              if (!navigator.clipboard) return refused();
              navigator.clipboard.writeText(shown?.url ?? "").then(() => toast("Copied the subscription URL to the clipboard.", "info"), refused);
            }}
          >
            Copy URL
          </button>
          <button type="button" class="button button-primary" onClick={() => setShown(null)}>
            I have stored it
          </button>
        </div>
      </Dialog>
    </section>
  );
}

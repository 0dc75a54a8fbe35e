// The caller's own reminder channels in a project (GET …/my-reminder-channels): e-mail, the
// mandatory baseline, and the optional Telegram and Discord direct messages and SMS, each with
// its readiness (a word, with the safe reason code when it is not ready) and its masked
// destination — never the address, number or chat itself. The actions act on the caller's
// binding only: link, verify, test, unlink for the messengers; start, resend, verify, consent,
// test, opt-out, unlink for SMS; and the per-project reminders preference. A messenger link
// code is shown once.
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction, type ActionState } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import { ActionButton } from "../../components/action-button.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary } from "../../components/form.tsx";
import { Loaded } from "../../components/page.tsx";
import { toast } from "../../components/toasts.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant } from "./format.ts";
import { ProjectFrame, type Workspace } from "./project-frame.tsx";

type Channel = PlanningSchemas["PersonalChannel"];
type ChannelName = Channel["channel"];
type Result = PlanningSchemas["ChannelActionResult"];
type Action = "link" | "verify" | "test" | "unlink" | "start" | "resend" | "opt-out" | "consent" | "preference";
type Body = PlanningSchemas["ChannelActionBody"];

export const CHANNEL_NAME: Record<ChannelName, string> = {
  email: "E-mail",
  messenger_a_dm: "Telegram direct messages",
  messenger_b_dm: "Discord direct messages",
  sms: "SMS",
};
const READINESS_TONE: Record<Channel["readiness"], string> = { ready: "active", pending: "pending", unlinked: "draft", blocked: "on_hold", revoked: "failed", error: "failed" };

const topic = (projectId: string) => `reminder-channels:${projectId}`;

/** One action of one channel: its own Idempotency-Key and outcome. */
function useChannelAction(projectId: string, channel: ChannelName, action: Action, onRun: (action: Action) => void) {
  const a = useAction<Result>();
  const run = async (body: Body = {}) => {
    onRun(action);
    const r = await a.run((headers) => planning.POST("/projects/{projectId}/my-reminder-channels/{channel}/{action}", { params: { path: { projectId, channel, action } }, body, headers }));
    if (r.ok) {
      publish(topic(projectId));
      publish("delivery-history");
    }
    return r;
  };
  return { ...a, name: action, go: run };
}

/** The outcome of the channel's last action (an alert when it was refused). */
function Outcome({ actions, last }: { actions: Array<ActionState<Result> & { name: Action }>; last: Action | null }) {
  return <FormSummary messages={actions.find((a) => a.name === last)?.summary ?? []} />;
}

/** A code input with its button (verify). */
function CodeForm({ label, button, action, onDone, hint }: { label: string; button: string; action: ReturnType<typeof useChannelAction>; onDone: (r: Result) => void; hint?: string }) {
  const [code, setCode] = useState("");
  return (
    <form
      noValidate
      class="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        // Nothing to verify yet (Enter in an empty field): the button says so by being disabled.
        if (!code.trim()) return;
        const r = await action.go({ code: code.trim() });
        if (r.ok) {
          setCode("");
          onDone(r.data);
        }
      }}
    >
      <Field label={label} name="code" autoComplete="one-time-code" value={code} hint={hint} onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)} errors={action.fieldErrors} />
      <ActionButton op={op("planning", "POST /projects/{projectId}/my-reminder-channels/{channel}/{action}")} type="submit" pending={action.pending} disabled={!code.trim()} onClick={() => undefined}>
        {button}
      </ActionButton>
    </form>
  );
}

function Btn({ action, children, body, onDone, destructive }: { action: ReturnType<typeof useChannelAction>; children: ComponentChildren; body?: Body; onDone: (r: Result) => void; destructive?: boolean }) {
  return (
    <ActionButton
      op={op("planning", "POST /projects/{projectId}/my-reminder-channels/{channel}/{action}")}
      pending={action.pending}
      destructive={destructive}
      onClick={async () => {
        const r = await action.go(body);
        if (r.ok) onDone(r.data);
      }}
    >
      {children}
    </ActionButton>
  );
}

function describeTest(channel: ChannelName, t: NonNullable<Result["test"]>): string {
  const what = `${CHANNEL_NAME[channel]} test: ${humanize(t.disposition).toLowerCase()}`;
  return t.code ? `${what} (${t.code}).` : `${what}.`;
}

function Facts({ c, tz }: { c: Channel; tz: string }) {
  return (
    <dl class="facts">
      <div>
        <dt>Readiness</dt>
        <dd>
          <Badge value={READINESS_TONE[c.readiness]} label={humanize(c.readiness)} />
          {c.reason ? <span class="muted"> ({c.reason})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Destination</dt>
        <dd>{c.destination ?? "none"}</dd>
      </div>
      <div>
        <dt>Reminders of this project</dt>
        <dd>{c.channel === "email" ? "always (the mandatory baseline)" : c.reminders ? "on" : "off"}</dd>
      </div>
      <div>
        <dt>Linked</dt>
        <dd>{c.linkedAt ? formatInstant(c.linkedAt, tz) : "—"}</dd>
      </div>
      {c.sms ? (
        <>
          <div>
            <dt>Number verification</dt>
            <dd>
              {humanize(c.sms.verification)}
              {c.sms.attemptsLeft !== null ? `, ${c.sms.attemptsLeft} attempts left` : ""}
              {c.sms.codeExpiresAt ? `, code valid until ${formatInstant(c.sms.codeExpiresAt, tz)}` : ""}
            </dd>
          </div>
          <div>
            <dt>Consent to SMS</dt>
            <dd>
              {humanize(c.sms.consent)}
              {c.sms.consentAt ? ` (${formatInstant(c.sms.consentAt, tz)})` : ""}
            </dd>
          </div>
        </>
      ) : null}
    </dl>
  );
}

function MessengerActions({ projectId, c, onLinkCode }: { projectId: string; c: Channel; onLinkCode: (link: NonNullable<Result["link"]>, channel: ChannelName) => void }) {
  const ch = c.channel;
  const [last, setLast] = useState<Action | null>(null);
  const link = useChannelAction(projectId, ch, "link", setLast);
  const verify = useChannelAction(projectId, ch, "verify", setLast);
  const test = useChannelAction(projectId, ch, "test", setLast);
  const unlink = useChannelAction(projectId, ch, "unlink", setLast);
  const pref = useChannelAction(projectId, ch, "preference", setLast);
  const [accountId, setAccountId] = useState("");
  const name = CHANNEL_NAME[ch];
  const linked = c.readiness === "ready";
  return (
    <>
      <Outcome actions={[link, verify, test, unlink, pref]} last={last} />
      {!linked ? (
        ch === "messenger_a_dm" ? (
          <div class="button-row">
            <Btn action={link} onDone={(r) => r.link && onLinkCode(r.link, ch)}>
              {c.readiness === "pending" ? "Get a new link code" : "Link Telegram"}
            </Btn>
          </div>
        ) : (
          <form
            noValidate
            class="inline-form"
            onSubmit={async (e) => {
              e.preventDefault();
              const r = await link.go({ accountId: accountId.trim() });
              if (r.ok) {
                setAccountId("");
                toast("The bot sent you a code in a Discord direct message: enter it below.", "info");
              }
            }}
          >
            <Field label="Your Discord account id" name="accountId" inputMode="numeric" hint="The number Discord shows under Copy User ID." value={accountId} onInput={(e) => setAccountId((e.currentTarget as HTMLInputElement).value)} errors={link.fieldErrors} />
            <ActionButton op={op("planning", "POST /projects/{projectId}/my-reminder-channels/{channel}/{action}")} type="submit" pending={link.pending} onClick={() => undefined}>
              Send me a code
            </ActionButton>
          </form>
        )
      ) : null}
      {c.readiness === "pending" ? (
        <CodeForm
          label={`${name} code`}
          hint={ch === "messenger_a_dm" ? "The link code you sent to the bot." : "The code the bot sent you."}
          button="Verify"
          action={verify}
          onDone={() => toast(`${name} is linked.`)}
        />
      ) : null}
      {linked ? (
        <div class="button-row">
          <Btn action={test} onDone={(r) => r.test && toast(describeTest(ch, r.test), r.test.disposition === "sent" ? "success" : "error")}>
            Send a test message
          </Btn>
          <Btn action={pref} body={{ reminders: !c.reminders }} onDone={(r) => toast(`${name}: reminders of this project ${r.channel.reminders ? "on" : "off"}.`)}>
            {c.reminders ? "Turn reminders off" : "Turn reminders on"}
          </Btn>
        </div>
      ) : null}
      {c.readiness !== "unlinked" ? (
        <div class="button-row">
          <Btn action={unlink} destructive onDone={() => toast(`${name} is unlinked; its scheduled reminders are cancelled.`)}>
            Unlink {name}
          </Btn>
        </div>
      ) : null}
    </>
  );
}

function SmsActions({ projectId, c }: { projectId: string; c: Channel }) {
  const [last, setLast] = useState<Action | null>(null);
  const start = useChannelAction(projectId, "sms", "start", setLast);
  const resend = useChannelAction(projectId, "sms", "resend", setLast);
  const verify = useChannelAction(projectId, "sms", "verify", setLast);
  const consent = useChannelAction(projectId, "sms", "consent", setLast);
  const test = useChannelAction(projectId, "sms", "test", setLast);
  const optOut = useChannelAction(projectId, "sms", "opt-out", setLast);
  const unlink = useChannelAction(projectId, "sms", "unlink", setLast);
  const pref = useChannelAction(projectId, "sms", "preference", setLast);
  const [number, setNumber] = useState({ phoneNumber: "", countryCode: "" });
  const sms = c.sms!;
  const verifying = sms.verification === "pending";
  const verified = sms.verification === "verified";
  return (
    <>
      <Outcome actions={[start, resend, verify, consent, test, optOut, unlink, pref]} last={last} />
      {!verified ? (
        <form
          noValidate
          class="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await start.go({ phoneNumber: number.phoneNumber.trim(), countryCode: number.countryCode.trim().toUpperCase() });
            if (r.ok) {
              setNumber({ phoneNumber: "", countryCode: "" });
              toast("A verification code is on its way by SMS.", "info");
            }
          }}
        >
          <Field label="Mobile number" name="phoneNumber" type="tel" autoComplete="tel" hint="International format with the country code, e.g. +44 for the UK. Never shown again: only its last two digits." value={number.phoneNumber} onInput={(e) => setNumber((n) => ({ ...n, phoneNumber: (e.currentTarget as HTMLInputElement).value }))} errors={start.fieldErrors} />
          <Field label="Country" name="countryCode" hint="Two letters, e.g. GB." maxLength={2} value={number.countryCode} onInput={(e) => setNumber((n) => ({ ...n, countryCode: (e.currentTarget as HTMLInputElement).value }))} errors={start.fieldErrors} />
          <ActionButton op={op("planning", "POST /projects/{projectId}/my-reminder-channels/{channel}/{action}")} type="submit" pending={start.pending} onClick={() => undefined}>
            {verifying ? "Use another number" : "Send a verification code"}
          </ActionButton>
        </form>
      ) : null}
      {verifying ? (
        <>
          <CodeForm label="SMS code" hint="The 6 digits from the text message." button="Verify number" action={verify} onDone={() => toast("Your number is verified.")} />
          <div class="button-row">
            <Btn action={resend} onDone={() => toast("Sent a new code.", "info")}>
              Send the code again
            </Btn>
          </div>
        </>
      ) : null}
      {verified && sms.consent !== "granted" ? (
        <div class="button-row">
          <Btn action={consent} onDone={() => toast("You agreed to receive this project's reminders by SMS.")}>
            I agree to receive reminders by SMS
          </Btn>
        </div>
      ) : null}
      {verified && sms.consent === "granted" ? (
        <div class="button-row">
          <Btn action={test} onDone={(r) => r.test && toast(describeTest("sms", r.test), r.test.code ? "error" : "success")}>
            Send a test SMS
          </Btn>
          <Btn action={pref} body={{ reminders: !c.reminders }} onDone={(r) => toast(`SMS: reminders of this project ${r.channel.reminders ? "on" : "off"}.`)}>
            {c.reminders ? "Turn reminders off" : "Turn reminders on"}
          </Btn>
          <Btn action={optOut} destructive onDone={() => toast("You opted out of SMS; queued messages are cancelled.")}>
            Opt out of SMS
          </Btn>
        </div>
      ) : null}
      {c.readiness !== "unlinked" || sms.verification !== "unverified" ? (
        <div class="button-row">
          <Btn action={unlink} destructive onDone={() => toast("SMS is unlinked; your number is forgotten for this channel.")}>
            Unlink SMS
          </Btn>
        </div>
      ) : null}
    </>
  );
}

function ChannelsBody({ w }: { w: Workspace }) {
  const projectId = w.id;
  const channels = useResource(() => planning.GET("/projects/{projectId}/my-reminder-channels", { params: { path: { projectId } } }).then(unwrap), [projectId], {
    topics: [topic(projectId)],
  });
  const [linkCode, setLinkCode] = useState<(NonNullable<Result["link"]> & { channel: ChannelName }) | null>(null);
  return (
    <Loaded resource={channels} label="your reminder channels">
      {(data) => (
        <>
          <p class="intro">Only you see and change these. Destinations are masked: the service never shows the address, number or chat it holds.</p>
          {data.channels.map((c) => (
            <section aria-labelledby={`channel-${c.channel}`} class="panel">
              <h2 id={`channel-${c.channel}`}>
                {CHANNEL_NAME[c.channel]} <span class="muted small">({c.channel})</span>
              </h2>
              <Facts c={c} tz={w.timeZone} />
              {c.channel === "email" ? (
                <p class="muted">The baseline every reminder goes to: the address of your membership. It has no actions here.</p>
              ) : c.channel === "sms" ? (
                <SmsActions projectId={projectId} c={c} />
              ) : (
                <MessengerActions projectId={projectId} c={c} onLinkCode={(l, channel) => setLinkCode({ ...l, channel })} />
              )}
            </section>
          ))}
          <Dialog open={linkCode !== null} title="Your Telegram link code (shown once)" onClose={() => setLinkCode(null)}>
            <p>
              Send this code to the bot{linkCode?.deepLink ? <> (or open <a href={linkCode.deepLink} rel="noreferrer noopener" target="_blank">the bot's link</a> and press Start)</> : null}, then
              verify it on this page. It expires {linkCode ? formatInstant(linkCode.expiresAt, w.timeZone) : ""}.
            </p>
            <Field label="Link code" name="linkCode" readOnly value={linkCode?.code ?? ""} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
            <div class="button-row">
              <button type="button" class="button button-primary" onClick={() => setLinkCode(null)}>
                Done
              </button>
            </div>
          </Dialog>
        </>
      )}
    </Loaded>
  );
}

function ChannelsPage({ params }: PageProps) {
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle="My reminder channels" title={(w) => `My reminder channels: ${w.name}`}>
      {(w) => <ChannelsBody w={w} />}
    </ProjectFrame>
  );
}

export const reminderChannelsPage: PageDef = {
  path: "/planning/projects/:projectId/reminder-channels",
  title: "My reminder channels",
  requires: op("planning", "GET /projects/{projectId}/my-reminder-channels"),
  render: (p) => <ChannelsPage {...p} />,
};

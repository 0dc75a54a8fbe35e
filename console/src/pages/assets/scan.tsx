// Scan resolve (POST /scan/resolve): a scanned value — typed or pasted, or read by a hand
// scanner acting as a keyboard — resolves to its item, the identifier's state and the current
// custody. Where the browser offers the Barcode Detection API (`BarcodeDetector`) a camera
// button reads codes from the camera; elsewhere the button is not offered at all.
import { useEffect, useRef, useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { describeProblem, isProblem } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { Page } from "../../components/page.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { Field } from "../../components/form.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { Facts, fmtTime, useDirectory } from "./common.tsx";

type Resolution = AssetsSchemas["ScanResolution"];

/** The part of the Barcode Detection API the page uses (not in TypeScript's DOM library). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string; format: string }>>;
}
type BarcodeDetectorCtor = new (opts?: { formats?: string[] }) => BarcodeDetectorLike;

function barcodeDetector(): BarcodeDetectorCtor | null {
  const ctor = (globalThis as { BarcodeDetector?: BarcodeDetectorCtor }).BarcodeDetector;
  return typeof ctor === "function" ? ctor : null;
}

/** Reads codes from the camera while open; calls onRead with the first one. */
function Camera({ onRead, onClose }: { onRead: (raw: string) => void; onClose: (problem?: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const Detector = barcodeDetector();
    if (!Detector) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const detector = new Detector();
    const tick = async () => {
      if (stopped || !video.current) return;
      try {
        const codes = await detector.detect(video.current);
        if (codes[0]?.rawValue) {
          onRead(codes[0].rawValue);
          return;
        }
      } catch {
        // A frame that is not ready yet: try the next one.
      }
      timer = setTimeout(() => void tick(), 250);
    };
    navigator.mediaDevices
      ?.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void tick();
      })
      .catch((err: Error) => onClose(`The camera could not be opened (${err.name}). Type or paste the value instead.`));
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  return (
    <div class="panel">
      <video ref={video} class="scan-video" muted playsInline aria-label="Camera view: hold the code in front of the camera" />
      <p class="note" role="status">
        Looking for a barcode or QR code…
      </p>
      <button type="button" class="button" onClick={() => onClose()}>
        Stop camera
      </button>
    </div>
  );
}

function Scan() {
  const dir = useDirectory();
  const [raw, setRaw] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ raw: string; found: Resolution } | { raw: string; problem: string; candidates: string[] } | null>(null);
  const [camera, setCamera] = useState(false);
  const [cameraProblem, setCameraProblem] = useState<string | null>(null);
  const hasDetector = barcodeDetector() !== null;

  const resolve = async (value: string) => {
    const v = value.trim();
    if (!v) return;
    setBusy(true);
    try {
      const r = await assets.POST("/scan/resolve", { body: { raw: v } });
      if (r.data) setResult({ raw: v, found: r.data });
      else {
        const p = isProblem(r.error) ? r.error : undefined;
        const candidates = (p as { candidates?: unknown } | undefined)?.candidates;
        setResult({ raw: v, problem: describeProblem(p, r.response.status), candidates: Array.isArray(candidates) ? candidates.map(String) : [] });
      }
    } catch {
      setResult({ raw: v, problem: "The service could not be reached. Try again.", candidates: [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Scan" intro="Resolve a scanned code to its item, the identifier's state and who holds the item now. A hand scanner that types into the field works too.">
      <form
        class="inline-search"
        aria-label="Resolve a scan"
        onSubmit={(e) => {
          e.preventDefault();
          void resolve(raw);
        }}
      >
        <Field
          label="Scanned value"
          name="raw"
          autoComplete="off"
          hint="A GS1 Digital Link, an element string such as (01)…(21)…, an EPC URI or hex, an asset tag or a serial number."
          value={raw}
          onInput={(e) => setRaw((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" class="button button-primary" aria-disabled={busy ? "true" : undefined}>
          Resolve
        </button>
        {hasDetector ? (
          <button
            type="button"
            class="button"
            onClick={() => {
              setCameraProblem(null);
              setCamera(true);
            }}
          >
            Scan with camera
          </button>
        ) : null}
      </form>
      {hasDetector ? null : <p class="note">This browser offers no barcode detection, so there is no camera scanning here: type, paste or use a hand scanner.</p>}
      {cameraProblem ? (
        <p role="alert" class="notice notice-warn">
          {cameraProblem}
        </p>
      ) : null}
      {camera ? (
        <Camera
          onRead={(value) => {
            setCamera(false);
            setRaw(value);
            void resolve(value);
          }}
          onClose={(problem) => {
            setCamera(false);
            if (problem) setCameraProblem(problem);
          }}
        />
      ) : null}
      <div aria-live="polite">
        {result && "found" in result ? (
          <section aria-labelledby="scan-result-heading" class="panel">
            <h2 id="scan-result-heading">
              Found: <Link to={`/assets/items/${result.found.item.id}`}>{result.found.item.name}</Link>
            </h2>
            <Facts
              facts={[
                ["Scanned", result.raw],
                ["Identifier", `${result.found.identifier.value} (${humanize(result.found.identifier.scheme)})`],
                ["Identifier state", <Badge value={result.found.identifier.state === "suspended" ? "on_hold" : result.found.identifier.state} label={humanize(result.found.identifier.state)} />],
                ["Lifecycle", <Badge value={result.found.item.lifecycle} />],
                ["Availability", <Badge value={result.found.item.availability} />],
                ["Location", dir.location(result.found.item.locationId)],
                ["Held by", result.found.custody ? `${dir.holder(result.found.custody.holder)}, due ${fmtTime(result.found.custody.dueAt)}` : "Nobody: not checked out"],
              ]}
            />
          </section>
        ) : result ? (
          <div role="alert" class="notice notice-error">
            <p>
              <strong>No item for “{result.raw}”.</strong> {result.problem}
            </p>
            {result.candidates.length ? <p>Looked up: {result.candidates.join("; ")}</p> : null}
          </div>
        ) : null}
      </div>
    </Page>
  );
}

export const scanPage: PageDef = {
  path: "/assets/scan",
  title: "Scan",
  nav: { section: "Assets", label: "Scan", order: 13 },
  requires: op("assets", "POST /scan/resolve"),
  render: () => <Scan />,
};

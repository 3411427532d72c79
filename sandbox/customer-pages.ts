import { Hono, type Context } from "hono";
import { html, renderPage, type SafeHtml } from "./html";
import { RESULT_STATUSES, type IdType, type ResultStatus, type SandboxStore, type TokenRecord } from "./store";

const ID_TYPE_LABELS: Record<IdType, string> = {
  GHANA_CARD: "Ghana Card",
  VOTER: "Voter ID",
  PASSPORT: "Passport",
  DRIVER_LICENCE: "Driver's licence",
};

const ID_NUMBER_FIELDS: Record<IdType, string> = {
  GHANA_CARD: "ghanacardnumber",
  VOTER: "voterid",
  PASSPORT: "passportnumber",
  DRIVER_LICENCE: "driverid",
};

type Status = 200 | 400 | 404 | 409 | 410 | 422;

function sendPage(c: Context, title: string, body: SafeHtml, status: Status = 200) {
  return c.html(renderPage({ title, body, isNarrow: true }), status);
}

function sendMessage(c: Context, title: string, text: string, status: Status) {
  return sendPage(c, title, html`<section><h1>${title}</h1><p>${text}</p></section>`, status);
}

function readOutcome(value: unknown): ResultStatus | undefined {
  return RESULT_STATUSES.find((status) => status === value);
}

function renderResult(record: TokenRecord): SafeHtml {
  const result = record.result!;
  const isSuccessful = result.status === "SUCCESSFUL";
  return html`<section>
  <h1>Verification complete</h1>
  <p class="big" role="status" style="color: var(${isSuccessful ? "--ok" : "--bad"})">
    ${isSuccessful ? "Verification succeeded" : "Verification failed"}</p>
  ${result.error && html`<p>Reason: ${result.error}</p>`}
  <p>Transaction number: <strong class="mono">${result.transactionNumber}</strong></p>
  <p class="muted">Token <span class="mono">${record.token}</span>. You can close this page.</p>
</section>`;
}

// ── remote verification link page ────────────────────────────────────────────

function verifyUrl(token: string, step?: string): string {
  return `/sandbox/verify/${encodeURIComponent(token)}${step ? `?step=${step}` : ""}`;
}

function renderInstructions(record: TokenRecord): SafeHtml {
  return html`<section>
  <h1>Before you start</h1>
  <p>You are about to verify your identity with your ${ID_TYPE_LABELS[record.idType]}.</p>
  <ol>
    <li>Find a well-lit place and face the camera.</li>
    <li>Remove glasses, hats or anything covering your face.</li>
    <li>Keep your ${ID_TYPE_LABELS[record.idType]} at hand.</li>
  </ol>
  <form method="get" action="${verifyUrl(record.token)}">
    <input type="hidden" name="step" value="confirm">
    <button>Continue</button>
  </form>
</section>`;
}

function renderConfirmation(record: TokenRecord): SafeHtml {
  return html`<section>
  <h1>Confirm and start</h1>
  <p>By continuing you agree that your face and ID details are captured and compared with the
  ${ID_TYPE_LABELS[record.idType]} records, for: <strong>${record.request.purpose}</strong>.</p>
  <form method="get" action="${verifyUrl(record.token)}">
    <input type="hidden" name="step" value="capture">
    <button>I agree, start</button>
  </form>
</section>`;
}

function renderCapture(record: TokenRecord, error?: string): SafeHtml {
  const isLivenessOnly = record.request.verification_mode_id === "7";
  const needsLocation = record.request.require_location === "1";
  const needsAddress = record.request.require_address_location === "1";
  return html`<section>
  <h1>Verify your identity</h1>
  ${error && html`<p class="error" role="alert">${error}</p>`}
  <p>Mode: <strong>${isLivenessOnly ? "Liveness only" : "Full KYC"}</strong></p>
  <p>${ID_TYPE_LABELS[record.idType]}: <span class="mono">${record.request[ID_NUMBER_FIELDS[record.idType]]}</span></p>
  <div class="warn" style="text-align:center; padding: 2.5rem 1rem; margin-bottom: 1rem">Camera capture is simulated in the sandbox.</div>
  <form method="post" action="${verifyUrl(record.token)}/finish">
    ${
      needsLocation &&
      html`<div class="field"><label for="location">Location</label>
      <input id="location" name="location" required aria-describedby="location-note">
      <span id="location-note" class="muted">A real device would capture GPS coordinates here.</span></div>`
    }
    ${
      needsAddress &&
      html`<div class="field"><label for="home-address">Home address</label>
      <input id="home-address" name="homeAddress" required></div>`
    }
    <div class="field"><label for="failure-reason">Failure reason (optional)</label>
      <input id="failure-reason" name="reason" placeholder="Verification Unsuccesful"></div>
    <div class="actions">
      <button class="success" name="outcome" value="SUCCESSFUL">Finish: verification succeeds</button>
      <button class="danger" name="outcome" value="FAILED">Finish: verification fails</button>
    </div>
  </form>
</section>`;
}

/** Refuses a link that cannot be used; returns undefined when the page may go on. */
function refuseUnusableLink(c: Context, record: TokenRecord | undefined) {
  if (!record) return sendMessage(c, "This link is not valid", "Ask for a new verification link.", 404);
  if (record.kind !== "remote") {
    return sendMessage(c, "Not a verification link", "This token is for fingerprint verification; use the scanner.", 400);
  }
  if (record.result) {
    return sendMessage(c, "This link has already been used", "The verification has been completed.", 409);
  }
  if (record.state === "expired") {
    return sendMessage(c, "This link has expired", "Links are valid for 15 minutes. Ask for a new one.", 410);
  }
  return undefined;
}

function registerVerifyPages(pages: Hono, store: SandboxStore) {
  pages.get("/sandbox/verify/:token", (c) => {
    const token = c.req.param("token");
    const record = store.describeToken(token);
    const step = c.req.query("step");
    if (record?.result && step === "done") return sendPage(c, "Verification complete", renderResult(record));
    const refusal = refuseUnusableLink(c, record);
    if (refusal) return refusal;

    // A session already under way (this page or the control API started it) resumes at capture.
    if (record!.state === "used") return sendPage(c, "Verify your identity", renderCapture(record!));
    const skipsInstructions = record!.request.with_instructions === "0";
    if (skipsInstructions || step === "capture") {
      // Opening the capture screen starts the session and spends the token, like the real service.
      const started = store.startVerification(token);
      if (!started.ok) return sendMessage(c, "This link cannot be used", started.message, 409);
      return sendPage(c, "Verify your identity", renderCapture(started.record));
    }
    if (step === "confirm") return sendPage(c, "Confirm and start", renderConfirmation(record!));
    return sendPage(c, "Before you start", renderInstructions(record!));
  });

  pages.post("/sandbox/verify/:token/finish", async (c) => {
    const token = c.req.param("token");
    const record = store.describeToken(token);
    const refusal = refuseUnusableLink(c, record);
    if (refusal) return refusal;

    const form = await c.req.parseBody();
    const text = (name: string) => (typeof form[name] === "string" ? form[name].trim() : "");
    const outcome = readOutcome(form.outcome);
    const missing = [
      record!.request.require_location === "1" && !text("location") && "Location",
      record!.request.require_address_location === "1" && !text("homeAddress") && "Home address",
    ].filter(Boolean);
    if (!outcome || missing.length > 0) {
      const error = outcome ? `Please fill in: ${missing.join(", ")}.` : "Choose how the verification ends.";
      return sendPage(c, "Verify your identity", renderCapture(record!, error), 422);
    }

    const finished = store.finishAsCustomer(
      token,
      { status: outcome, error: text("reason") || undefined },
      { location: text("location") || undefined, homeAddress: text("homeAddress") || undefined },
    );
    if (!finished.ok) return sendMessage(c, "This link cannot be used", finished.message, 409);
    return c.redirect(verifyUrl(token, "done"), 303);
  });
}

// ── fingerprint scanner simulator ────────────────────────────────────────────

function scannerUrl(token: string): string {
  return `/sandbox/scanner/${encodeURIComponent(token)}`;
}

function renderScannerForm(options: { token?: string; error?: string } = {}): SafeHtml {
  return html`<section>
  <h1>Fingerprint scanner</h1>
  <p class="muted">Stands in for the provider's Android fingerprint SDK. Enter the token the teller's screen shows.</p>
  ${options.error && html`<p class="error" role="alert" id="token-error">${options.error}</p>`}
  <form method="post" action="/sandbox/scanner/capture">
    <div class="field"><label for="token">Token</label>
      <input id="token" name="token" class="mono" autocomplete="off" required value="${options.token ?? ""}"
        ${options.error ? html`aria-invalid="true" aria-describedby="token-error"` : ""}></div>
    <button>Capture fingerprint</button>
  </form>
</section>`;
}

function renderCaptured(record: TokenRecord): SafeHtml {
  return html`<section>
  <h1>Fingerprint captured</h1>
  <p>Token <strong class="mono">${record.token}</strong> · Ghana Card <span class="mono">${record.request.id_number}</span></p>
  <p class="muted">Choose what the comparison with the Ghana Card records finds.</p>
  <form method="post" action="${scannerUrl(record.token)}/finish" class="actions">
    <button class="success" name="outcome" value="SUCCESSFUL">Match: verification succeeds</button>
    <button class="danger" name="outcome" value="FAILED">No match: verification fails</button>
  </form>
</section>`;
}

function describeUnscannableToken(token: string, record: TokenRecord | undefined): string | undefined {
  if (!token) return "Enter a token.";
  if (!record) return `No token ${token} exists.`;
  if (record.kind !== "fingerprint") return `${token} is a remote-verification token; open its link page instead.`;
  if (record.state === "expired") return `Token ${token} has expired.`;
  if (record.state === "used") return `Token ${token} has already been used.`;
  return undefined;
}

function registerScannerPages(pages: Hono, store: SandboxStore) {
  pages.get("/sandbox/scanner", (c) => sendPage(c, "Fingerprint scanner", renderScannerForm()));

  pages.post("/sandbox/scanner/capture", async (c) => {
    const form = await c.req.parseBody();
    const token = typeof form.token === "string" ? form.token.trim().toUpperCase() : "";
    const error = describeUnscannableToken(token, store.describeToken(token));
    if (error) return sendPage(c, "Fingerprint scanner", renderScannerForm({ token, error }), 422);
    store.startVerification(token);
    return c.redirect(scannerUrl(token), 303);
  });

  pages.get("/sandbox/scanner/:token", (c) => {
    const token = c.req.param("token");
    const record = store.describeToken(token);
    if (record?.kind === "fingerprint" && record.result) return sendPage(c, "Verification complete", renderResult(record));
    if (record?.kind === "fingerprint" && record.state === "used") {
      return sendPage(c, "Fingerprint captured", renderCaptured(record));
    }
    const error = describeUnscannableToken(token, record) ?? "Capture the fingerprint first.";
    return sendPage(c, "Fingerprint scanner", renderScannerForm({ token, error }), 409);
  });

  pages.post("/sandbox/scanner/:token/finish", async (c) => {
    const token = c.req.param("token");
    const record = store.describeToken(token);
    const outcome = readOutcome((await c.req.parseBody()).outcome);
    if (record?.kind !== "fingerprint" || !outcome) {
      return sendPage(c, "Fingerprint scanner", renderScannerForm({ token, error: "Capture the fingerprint first." }), 409);
    }
    const finished = store.finishAsCustomer(token, { status: outcome });
    if (!finished.ok) return sendPage(c, "Fingerprint scanner", renderScannerForm({ token, error: finished.message }), 409);
    return c.redirect(scannerUrl(token), 303);
  });
}

/** What the person being verified sees: the SMS link page and the fingerprint scanner. */
export function createCustomerPages(store: SandboxStore): Hono {
  const pages = new Hono();
  registerVerifyPages(pages, store);
  registerScannerPages(pages, store);
  return pages;
}

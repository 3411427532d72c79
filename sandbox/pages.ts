import { Hono } from "hono";
import { html, renderFlash, renderPage, type SafeHtml } from "./html";
import { FAULT_MODES, NO_RESULT_SHAPES, type SandboxStore, type TokenRecord } from "./store";

const RECENT_CALLS_SHOWN = 15;

/** Times are shown in UTC, like the ISO values the control API returns. */
function formatTime(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$/, "");
}

function renderStateBadge(record: TokenRecord): SafeHtml {
  return html`<span class="badge ${record.state}">${record.state}</span>${
    record.result && html` <span class="badge ${record.result.status}">${record.result.status}</span>`
  }`;
}

function renderTokenActions(record: TokenRecord): SafeHtml {
  const base = `/sandbox/controls/tokens/${encodeURIComponent(record.token)}`;
  const canFinish = record.state === "pending" || (record.state === "used" && !record.result);
  const customerPage =
    record.kind === "remote"
      ? html`<a href="/sandbox/verify/${record.token}">Link page</a>`
      : html`<a href="/sandbox/scanner">Scanner</a>`;
  return html`<div class="cell-actions">${customerPage}
    ${record.state === "pending" &&
    html`<form class="inline" method="post" action="${base}/use"><button class="small secondary">Mark used</button></form>`}
    ${canFinish &&
    html`<form class="inline" method="post" action="${base}/result"><input type="hidden" name="status" value="SUCCESSFUL"><button class="small success" aria-label="Succeed ${record.token}">Succeed</button></form>
    <form class="inline" method="post" action="${base}/result"><input type="hidden" name="status" value="FAILED"><button class="small danger" aria-label="Fail ${record.token}">Fail</button></form>`}</div>`;
}

function renderControlsPage(store: SandboxStore, flash: SafeHtml): string {
  const tokens = store.listTokens().reverse();
  const faults = store.listFaults();
  const outcomes = store.listForcedOutcomes();
  const calls = store.listCalls().slice(-RECENT_CALLS_SHOWN).reverse();
  const offsetMinutes = Math.round(store.offsetMs / 60_000);

  const body = html`
<h1>Sandbox controls</h1>
${flash}
<p class="muted">An imitation of the identity-verification token service. See also the
<a href="/sandbox/outbox">outbox</a> (SMS and e-mail sent) and the <a href="/sandbox/scanner">fingerprint scanner</a>.</p>

<section aria-labelledby="tokens-heading">
  <h2 id="tokens-heading">Tokens</h2>
  ${
    tokens.length === 0
      ? html`<p class="muted">No tokens yet. Generate one through the API.</p>`
      : html`<table>
    <thead><tr><th scope="col">Token</th><th scope="col">Kind</th><th scope="col">ID type</th><th scope="col">Expires (UTC)</th><th scope="col">State</th><th scope="col">Transaction</th><th scope="col">Actions</th></tr></thead>
    <tbody>${tokens.map(
      (record) => html`<tr>
      <td class="mono">${record.token}</td><td>${record.kind}</td><td>${record.idType}</td>
      <td class="nowrap">${formatTime(record.expiresAt)}</td><td class="nowrap">${renderStateBadge(record)}</td>
      <td class="mono">${record.result?.transactionNumber ?? "—"}</td>
      <td>${renderTokenActions(record)}</td></tr>`,
    )}</tbody></table>`
  }
</section>

<section aria-labelledby="clock-heading">
  <h2 id="clock-heading">Clock</h2>
  <p>Sandbox time: <strong>${formatTime(store.nowIso())} UTC</strong>
  ${offsetMinutes !== 0 && html`<span class="muted">(${offsetMinutes} minutes ahead of real time)</span>`}</p>
  <form method="post" action="/sandbox/controls/clock" class="row">
    <div class="field"><label for="clock-minutes">Minutes to advance</label>
      <input id="clock-minutes" name="minutes" type="number" min="0" step="any" value="16" required></div>
    <button>Advance clock</button>
  </form>
</section>

<section aria-labelledby="outcome-heading">
  <h2 id="outcome-heading">Force an outcome</h2>
  <p class="muted">The outcome a token gets when the customer finishes on the link page or scanner, whatever they press.</p>
  <form method="post" action="/sandbox/controls/outcome" class="row">
    <div class="field"><label for="outcome-token">Token</label>
      <input id="outcome-token" name="token" placeholder="empty: next generated token" size="24"></div>
    <div class="field"><label for="outcome-status">Outcome</label>
      <select id="outcome-status" name="status"><option>SUCCESSFUL</option><option>FAILED</option></select></div>
    <div class="field"><label for="outcome-error">Failure message</label>
      <input id="outcome-error" name="error" placeholder="Verification Unsuccesful"></div>
    <button>Force outcome</button>
  </form>
  ${
    outcomes.length > 0 &&
    html`<ul>${outcomes.map(
      (outcome) =>
        html`<li>${outcome.token ? html`Token <code>${outcome.token}</code>` : "Next generated token"}: ${outcome.status}${outcome.error && ` (${outcome.error})`}</li>`,
    )}</ul>`
  }
</section>

<section aria-labelledby="faults-heading">
  <h2 id="faults-heading">Faults</h2>
  <p class="muted">Applied to the next matching <code>/api/*</code> calls, before authentication.</p>
  <form method="post" action="/sandbox/controls/faults" class="row">
    <div class="field"><label for="fault-mode">Mode</label>
      <select id="fault-mode" name="mode">${FAULT_MODES.map((mode) => html`<option>${mode}</option>`)}</select></div>
    <div class="field"><label for="fault-count">Count</label>
      <input id="fault-count" name="count" type="number" min="1" value="1" size="4"></div>
    <div class="field"><label for="fault-path">Path prefix</label>
      <input id="fault-path" name="path" placeholder="/api/identification/…" size="30"></div>
    <div class="field"><label for="fault-token">Token only</label>
      <input id="fault-token" name="token" placeholder="any token" size="12"></div>
    <div class="field"><label for="fault-delay">Delay (ms)</label>
      <input id="fault-delay" name="delayMs" type="number" min="0" placeholder="1000" size="6"></div>
    <div class="field"><label for="fault-retry-after">Retry-After (s)</label>
      <input id="fault-retry-after" name="retryAfterSeconds" type="number" min="0" placeholder="none" size="4"></div>
    <button>Add fault</button>
  </form>
  <p class="muted"><code>delay</code> waits before processing; <code>slow</code> processes (a token is created, its SMS sent) and answers late;
  <code>hang</code> processes and never answers; <code>429</code> refuses with Too Many Requests.</p>
  ${
    faults.length > 0 &&
    html`<table><thead><tr><th scope="col">#</th><th scope="col">Mode</th><th scope="col">Remaining</th><th scope="col">Path</th><th scope="col">Token</th></tr></thead>
    <tbody>${faults.map(
      (fault) => html`<tr><td>${fault.id}</td><td>${fault.mode}${fault.delayMs !== undefined && ` (${fault.delayMs} ms)`}</td>
        <td>${fault.remaining} of ${fault.count}</td><td class="mono">${fault.path ?? "any"}</td><td class="mono">${fault.token ?? "any"}</td></tr>`,
    )}</tbody></table>`
  }
  <form method="post" action="/sandbox/controls/faults/clear" class="actions"><button class="secondary">Clear faults</button></form>
</section>

<section aria-labelledby="behaviour-heading">
  <h2 id="behaviour-heading">token_status without a result</h2>
  <p class="muted">How <code>token_status</code> answers a token that has no result yet (the spec does not say). Now: <code>${store.tokenStatusNoResultShape}</code>.</p>
  <form method="post" action="/sandbox/controls/behaviour" class="row">
    <div class="field"><label for="no-result-shape">Answer</label>
      <select id="no-result-shape" name="tokenStatusNoResult">${NO_RESULT_SHAPES.map(
        (shape) => html`<option${shape === store.tokenStatusNoResultShape ? " selected" : ""}>${shape}</option>`,
      )}</select></div>
    <button>Set</button>
  </form>
</section>

<section aria-labelledby="calls-heading">
  <h2 id="calls-heading">Recent API calls</h2>
  ${
    calls.length === 0
      ? html`<p class="muted">No calls yet.</p>`
      : html`<table><thead><tr><th scope="col">#</th><th scope="col">At (UTC)</th><th scope="col">Call</th><th scope="col">Token</th><th scope="col">Status</th></tr></thead>
    <tbody>${calls.map(
      (call) => html`<tr><td>${call.id}</td><td class="nowrap">${formatTime(call.at)}</td><td class="mono">${call.method} ${call.path}</td>
        <td class="mono">${call.token ?? ""}</td><td>${call.status || "—"}${call.fault && ` (fault: ${call.fault})`}</td></tr>`,
    )}</tbody></table>`
  }
</section>

<section aria-labelledby="reset-heading">
  <h2 id="reset-heading">Reset</h2>
  <form method="post" action="/sandbox/controls/reset" class="row">
    <p class="muted">Clears tokens, outbox, calls, faults, forced outcomes and the clock offset.</p>
    <button class="danger">Reset sandbox</button>
  </form>
</section>`;
  return renderPage({ title: "Controls", body });
}

function renderOutboxPage(store: SandboxStore): string {
  const messages = store.listMessages().reverse();
  const body = html`
<h1>Outbox</h1>
<p class="muted">SMS and e-mail the service would have sent to the person being verified.</p>
<section>
  ${
    messages.length === 0
      ? html`<p class="muted">No messages yet. Generate a remote token with <code>send_token_to_client=1</code> or an <code>email</code>.</p>`
      : html`<table>
    <thead><tr><th scope="col">Sent (UTC)</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Token</th><th scope="col">Message</th><th scope="col">Link</th></tr></thead>
    <tbody>${messages.map(
      (message) => html`<tr><td class="nowrap">${formatTime(message.sentAt)}</td><td>${message.channel === "sms" ? "SMS" : "E-mail"}</td>
        <td>${message.to}</td><td class="mono">${message.token}</td><td>${message.body}</td>
        <td class="nowrap"><a href="${message.link}" aria-label="Open verification page for ${message.token}">Open verification page</a></td></tr>`,
    )}</tbody></table>`
  }
</section>`;
  return renderPage({ title: "Outbox", body });
}

/** The tester-facing pages: controls and outbox. */
export function createOperatorPages(store: SandboxStore): Hono {
  const pages = new Hono();
  pages.get("/", (c) => c.redirect("/sandbox"));
  pages.get("/sandbox/", (c) => c.redirect("/sandbox"));
  pages.get("/sandbox", (c) =>
    c.html(renderControlsPage(store, renderFlash(c.req.query("notice"), c.req.query("error")))),
  );
  pages.get("/sandbox/outbox", (c) => c.html(renderOutboxPage(store)));
  return pages;
}

/** Markup that is already escaped; anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function renderValue(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  // `false` and nullish render nothing so `${condition && html`…`}` reads naturally.
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, part, i) => out + part + (i < values.length ? renderValue(values[i]) : ""), ""));
}

const STYLES = `
  :root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d9dee8; --accent: #1f5fbf;
    --ok: #1d7a46; --bad: #b42318; --warn-bg: #fff6e0; --bg: #f4f6fa; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
  header { background: #1d2330; color: #fff; padding: .6rem 1.25rem; display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap; }
  header strong { letter-spacing: .02em; }
  header nav { display: flex; gap: 1rem; }
  header a { color: #cfe0ff; }
  main { max-width: 74rem; margin: 1.5rem auto; padding: 0 1.25rem; }
  main.narrow { max-width: 28rem; }
  h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 1rem; }
  h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
  section { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem; margin-bottom: 1.25rem; }
  p { margin: .25rem 0 .75rem; }
  .muted { color: var(--muted); font-size: .9rem; }
  .notice { background: #e8f3ec; border: 1px solid #b5dcc3; border-radius: 8px; padding: .6rem 1rem; margin-bottom: 1rem; }
  .error { background: #fdecea; border: 1px solid #f3b8b2; color: var(--bad); border-radius: 8px; padding: .6rem 1rem; margin-bottom: 1rem; }
  .warn { background: var(--warn-bg); border: 1px solid #f0d28a; border-radius: 8px; padding: .6rem 1rem; }
  table { width: 100%; border-collapse: collapse; font-size: .92rem; }
  th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 600; }
  code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
  .mono, td.nowrap { white-space: nowrap; }
  .cell-actions { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; }
  form.inline { display: inline; }
  .row { display: flex; gap: .75rem; flex-wrap: wrap; align-items: flex-end; }
  .field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: .75rem; }
  .row .field { margin-bottom: 0; }
  label { font-weight: 600; font-size: .9rem; }
  input, select { font: inherit; height: 2.4rem; padding: .4rem .55rem; border: 1px solid #b8c0cf; border-radius: 6px; background: #fff; min-width: 0; }
  button, .button { font: inherit; font-weight: 600; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent);
    background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
  button.secondary { background: #fff; color: var(--accent); }
  button.success { background: var(--ok); border-color: var(--ok); }
  button.danger { background: var(--bad); border-color: var(--bad); }
  button.small { padding: .2rem .55rem; font-size: .85rem; }
  .actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1rem; }
  .badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600; background: #e7ecf5; }
  .badge.pending { background: #e3ecff; color: #1f4fa0; }
  .badge.used { background: #efe7fb; color: #5b2ea6; }
  .badge.expired { background: #eee; color: #666; }
  .badge.SUCCESSFUL { background: #e2f4e8; color: var(--ok); }
  .badge.FAILED { background: #fdecea; color: var(--bad); }
  .big { font-size: 1.35rem; font-weight: 700; }
  ol, ul { padding-left: 1.25rem; margin: .25rem 0 .75rem; }
`;

export function renderPage(options: { title: string; body: SafeHtml; isNarrow?: boolean }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Verification sandbox</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
<header>
  <strong>Verification sandbox</strong>
  <nav aria-label="Sandbox">
    <a href="/sandbox">Controls</a>
    <a href="/sandbox/outbox">Outbox</a>
    <a href="/sandbox/scanner">Fingerprint scanner</a>
  </nav>
</header>
<main class="${options.isNarrow ? "narrow" : ""}">
${options.body}
</main>
</body>
</html>`.value;
}

/** Flash text carried through a redirect in the query string, shown once at the top of a page. */
export function renderFlash(notice: string | undefined, error: string | undefined): SafeHtml {
  return html`${notice && html`<p class="notice" role="status">${notice}</p>`}${error && html`<p class="error" role="alert">${error}</p>`}`;
}

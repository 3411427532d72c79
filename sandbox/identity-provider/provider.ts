// A local OpenID Connect provider (oidc-provider, a certified implementation) standing in for the
// bank's identity provider: its own login page, a second-factor step, and amr/acr/groups in the ID
// token, so the app's SSO sign-in is tested against a real provider and not a mock of our own.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Provider from "oidc-provider";

import { findBySubject, findByUsername, rename, usernameOf, type Person } from "./directory";

export const ACR_PASSWORD = "urn:veridesk:idp:pwd";
export const ACR_MFA = "urn:veridesk:idp:mfa";

export interface IdentityProviderOptions {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface RunningIdentityProvider {
  issuer: string;
  close(): Promise<void>;
}

const CLAIMS = ["sub", "amr", "acr", "auth_time", "groups", "preferred_username", "name"];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function loginPage(uid: string, error?: string): string {
  return page(
    "Bank sign-in",
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>`,
  );
}

function codePage(uid: string, error?: string): string {
  return page(
    "Second step",
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}<form method="post" action="/interaction/${escapeHtml(uid)}/otp">
<label>One-time code <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<button type="submit">Verify</button></form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

export function createIdentityProvider(options: IdentityProviderOptions): { issuer: string; server: Server } {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    // Without this, amr/acr/groups would only be in the userinfo response, not the ID token.
    conformIdTokenClaims: false,
    claims: { openid: CLAIMS, profile: ["name", "preferred_username"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["veridesk-sandbox-idp-cookie-key"] },
    findAccount: (_ctx: unknown, id: string) => {
      const person = findBySubject(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, preferred_username: usernameOf(person), name: person.name, groups: person.groups }),
      };
    },
    // First-party sign-in: no consent page; every client gets the openid scope and its claims.
    loadExistingGrant: async (ctx: {
      oidc: { client: { clientId: string }; session: { accountId: string; grantIdFor(clientId: string): string | undefined } };
    }) => {
      const existing = ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (existing) {
        const found = await provider.Grant.find(existing);
        if (found) return found;
      }
      const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid profile");
      grant.addOIDCClaims(CLAIMS);
      await grant.save();
      return grant;
    },
  });

  // Who passed the password step of each interaction and waits for the code.
  const waiting = new Map<string, Person>();
  const providerCallback = provider.callback();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/control/rename" && req.method === "POST") {
      const form = await readForm(req);
      const ok = rename(form.get("subject") ?? "", form.get("username") ?? "");
      res.writeHead(ok ? 204 : 404).end();
      return true;
    }
    const match = /^\/interaction\/([^/]+)(?:\/(login|otp))?$/.exec(url.pathname);
    if (!match) return false;
    const [, uid, step] = match;
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, page("Bank sign-in", "<p>This sign-in has expired.</p>")), true;
    if (!step && req.method === "GET") return send(res, 200, loginPage(uid)), true;
    if (step === "login" && req.method === "POST") {
      const form = await readForm(req);
      const person = findByUsername(form.get("username") ?? "");
      if (!person || person.password !== form.get("password")) {
        return send(res, 401, loginPage(uid, "Wrong username or password.")), true;
      }
      if (person.otp === null) {
        await provider.interactionFinished(req, res, { login: { accountId: person.subject, amr: ["pwd"], acr: ACR_PASSWORD } }, { mergeWithLastSubmission: false });
        return true;
      }
      waiting.set(uid, person);
      return send(res, 200, codePage(uid)), true;
    }
    if (step === "otp" && req.method === "POST") {
      const person = waiting.get(uid);
      if (!person) return send(res, 400, loginPage(uid, "Sign in with your password first.")), true;
      const form = await readForm(req);
      if (form.get("code") !== person.otp) return send(res, 401, codePage(uid, "Wrong code.")), true;
      waiting.delete(uid);
      await provider.interactionFinished(req, res, { login: { accountId: person.subject, amr: ["pwd", "otp", "mfa"], acr: ACR_MFA } }, { mergeWithLastSubmission: false });
      return true;
    }
    return send(res, 405, page("Bank sign-in", "<p>Not allowed.</p>")), true;
  }

  const server = createServer((req, res) => {
    handle(req, res)
      .then((handled) => {
        if (!handled) providerCallback(req, res);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) send(res, 400, page("Bank sign-in", `<p>${escapeHtml(String(error))}</p>`));
      });
  });
  return { issuer, server };
}

export function startIdentityProvider(options: IdentityProviderOptions): Promise<RunningIdentityProvider> {
  const { issuer, server } = createIdentityProvider(options);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () =>
      resolve({ issuer, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}

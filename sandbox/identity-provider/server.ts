// `npm run idp`: the local identity provider, to try SSO beside `npm start`.
import { directory, usernameOf } from "./directory";
import { startIdentityProvider } from "./provider";

const port = Number(process.env.IDP_PORT ?? 4600);
const clientId = process.env.IDP_CLIENT_ID ?? "veridesk";
const clientSecret = process.env.IDP_CLIENT_SECRET ?? "veridesk-sandbox-secret";
// better-auth's SSO plugin calls back at <base>/api/auth/sso/callback/<providerId>; the provider id is "bank".
const redirectUris = (
  process.env.IDP_REDIRECT_URIS ??
  "http://localhost:3000/api/auth/sso/callback/bank,http://127.0.0.1:3000/api/auth/sso/callback/bank"
)
  .split(",")
  .map((uri) => uri.trim())
  .filter(Boolean);

const idp = await startIdentityProvider({ port, clientId, clientSecret, redirectUris });
console.log(`Identity provider listening on ${idp.issuer}`);
console.log(`Issuer ${idp.issuer}  client id ${clientId}  client secret ${clientSecret}`);
console.log(`Redirect URIs ${redirectUris.join(" ")}`);
for (const person of directory) {
  console.log(
    `  ${usernameOf(person).padEnd(18)} password ${person.password.padEnd(16)} code ${(person.otp ?? "-").padEnd(7)} ${person.groups.join(",").padEnd(32)} ${person.role}`,
  );
}
const stop = () => void idp.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

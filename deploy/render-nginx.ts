/**
 * Writes the nginx snippet for Veridesk (deploy/nginx/veridesk.conf.template) with the instances
 * and certificate filled in, to stdout or --out:
 *
 *   npx tsx deploy/render-nginx.ts --instance 10.0.4.11:3000 --instance 10.0.4.12:3000 \
 *     --server-name desk.example.bank --cert /etc/ssl/desk.pem --key /etc/ssl/desk.key \
 *     > /etc/nginx/conf.d/veridesk.conf
 *
 * The multi-instance end-to-end run renders its nginx configuration with the same function.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export type NginxSettings = {
  /** host:port of each instance, as nginx reaches it. */
  instances: string[];
  /** What `listen` gets before `ssl`: a port, or address:port. */
  listen: string;
  serverName: string;
  certificate: string;
  certificateKey: string;
  accessLog: string;
};

const templatePath = path.join(path.dirname(fileURLToPath(import.meta.url)), "nginx", "veridesk.conf.template");

export function renderNginxConfig(settings: NginxSettings): string {
  if (settings.instances.length === 0) throw new Error("at least one --instance host:port is needed");
  for (const instance of settings.instances) {
    if (!/^[\w.-]+:\d{1,5}$/.test(instance)) throw new Error(`not a host:port: ${instance}`);
  }
  const values: Record<string, string> = {
    UPSTREAM_SERVERS: settings.instances.map((instance) => `    server ${instance} max_fails=3 fail_timeout=10s;`).join("\n"),
    LISTEN: settings.listen,
    SERVER_NAME: settings.serverName,
    TLS_CERTIFICATE: settings.certificate,
    TLS_CERTIFICATE_KEY: settings.certificateKey,
    ACCESS_LOG: settings.accessLog,
  };
  const rendered = readFileSync(templatePath, "utf8").replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the template names {{${name}}}, which the renderer does not know`);
    if (/[;{}\n]/.test(value) && name !== "UPSTREAM_SERVERS") throw new Error(`${name} must not contain ; { } or a newline`);
    return value;
  });
  return rendered;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      instance: { type: "string", multiple: true },
      listen: { type: "string", default: "443" },
      "server-name": { type: "string", default: "_" },
      cert: { type: "string" },
      key: { type: "string" },
      "access-log": { type: "string", default: "/var/log/nginx/veridesk.access.log" },
      out: { type: "string" },
    },
  });
  if (!values.cert || !values.key) throw new Error("--cert and --key are required (the certificate and its key, PEM)");
  const rendered = renderNginxConfig({
    instances: values.instance ?? [],
    listen: values.listen,
    serverName: values["server-name"],
    certificate: values.cert,
    certificateKey: values.key,
    accessLog: values["access-log"],
  });
  if (values.out) writeFileSync(values.out, rendered);
  else process.stdout.write(rendered);
}

import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { tokenCreateRequestSchema } from "@/lib/api/schemas";
import { apiFieldName, formIdFieldsOf } from "@/lib/api/tokens";
import { lastFourOf, maskIdNumber } from "@/lib/pii/mask";
import { buildRemoteTokenForm } from "@/lib/upstream/request-bodies";
import { toRemoteTokenRequest } from "@/lib/validation/remote-token-payload";
import { checkRemoteTokenForm } from "@/lib/validation/token-form-rules";
import { emptyRemoteTokenForm, idNumberOf } from "@/lib/validation/token-form-shape";
import { remoteTokenActionSchema, remoteTokenFormSchema } from "@/lib/validation/token-forms";
import { RemoteTokenForm } from "@/components/tokens/remote-token-form";
import { remoteSubmissionOptions } from "@/test/kit/submission-options";
import { DATE_OF_BIRTH_FIELD, ID_TYPE_DESCRIPTORS, ID_TYPES, idFieldsOf, idTypeLabels, type IdTypeDescriptor } from "./id-types";

/*
 * Every reader of the ID types' descriptors, for every descriptor: a type listed in
 * ID_TYPE_DESCRIPTORS that one of them leaves out (the browser's rules, the server's schema, the
 * provider's body, the API, the form's rendering) fails here, under the type's name.
 */

const dateOfBirth = "1990-03-07";

function filledForm(descriptor: IdTypeDescriptor) {
  return {
    ...emptyRemoteTokenForm(descriptor.type as (typeof ID_TYPES)[number]),
    phoneNumber: "0241234567",
    referenceId: "ACC-1",
    purpose: "Account opening",
    ...remoteSubmissionOptions,
    [descriptor.number.field]: descriptor.number.example,
    ...(descriptor.dateOfBirth ? { [DATE_OF_BIRTH_FIELD]: dateOfBirth } : {}),
  };
}

describe.each(ID_TYPE_DESCRIPTORS.map((descriptor) => [descriptor.type, descriptor as IdTypeDescriptor] as const))("the ID type %s", (type, descriptor) => {
  it("has its own field names and a label", () => {
    expect(idTypeLabels[type]).toBe(descriptor.label);
    expect(ID_TYPES).toContain(type);
    expect(idFieldsOf(type)).toEqual(descriptor.dateOfBirth ? [descriptor.number.field, DATE_OF_BIRTH_FIELD] : [descriptor.number.field]);
    const others = ID_TYPE_DESCRIPTORS.filter((other) => other.type !== type);
    expect(others.map((other) => other.number.field)).not.toContain(descriptor.number.field);
    expect(others.map((other) => other.number.providerField)).not.toContain(descriptor.number.providerField);
  });

  it("passes the browser's rules and the server's schema alike, its example unchanged", () => {
    const form = filledForm(descriptor);
    const checked = checkRemoteTokenForm(form);
    expect(checked).toMatchObject({ ok: true });
    const parsed = remoteTokenFormSchema.parse(form);
    expect(parsed).toMatchObject({ idType: type, [descriptor.number.field]: descriptor.number.example });
    expect(idNumberOf(parsed)).toBe(descriptor.number.example);
    expect(remoteTokenActionSchema.safeParse({ ...form, idempotencyKey: crypto.randomUUID() }).success).toBe(true);
  });

  it("refuses an empty number under its own field, in the browser and on the server", () => {
    const form = { ...filledForm(descriptor), [descriptor.number.field]: "" };
    const checked = checkRemoteTokenForm(form);
    expect(checked.ok).toBe(false);
    expect(Object.keys(checked.ok ? {} : checked.fieldErrors)).toEqual([descriptor.number.field]);
    const parsed = remoteTokenFormSchema.safeParse(form);
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0])).toEqual([descriptor.number.field]);
  });

  it("reaches the provider under the provider's own field names, and only its own", () => {
    const request = toRemoteTokenRequest(remoteTokenFormSchema.parse(filledForm(descriptor)));
    const { body, sensitiveValues } = buildRemoteTokenForm(request);
    expect(body.get("id_type")).toBe(type);
    expect(body.get(descriptor.number.providerField)).toBe(descriptor.number.example);
    if (descriptor.dateOfBirth) expect(body.get(descriptor.dateOfBirth.providerField)).toBe(dateOfBirth);
    for (const other of ID_TYPE_DESCRIPTORS.filter((candidate) => candidate.type !== type)) expect(body.has(other.number.providerField)).toBe(false);
    expect(sensitiveValues).toContain(descriptor.number.example);
  });

  it("is accepted by the API, whose id_number and dob fill the form's fields", () => {
    const request = tokenCreateRequestSchema.parse({
      kind: "remote",
      id_type: type,
      id_number: descriptor.number.example,
      ...(descriptor.dateOfBirth ? { dob: dateOfBirth } : {}),
      branch: "KSI",
      purpose: "account-opening",
      reference: "ACC-1",
      consent_version: 1,
    });
    const fields = formIdFieldsOf(request);
    expect(fields).toEqual(descriptor.dateOfBirth ? { [descriptor.number.field]: descriptor.number.example, dateOfBirth } : { [descriptor.number.field]: descriptor.number.example });
    expect(apiFieldName(descriptor.number.field)).toBe("id_number");
  });

  it("is masked from its last four", () => {
    const lastFour = lastFourOf(descriptor.number.example);
    const masked = maskIdNumber(type, lastFour);
    expect(masked).not.toContain(descriptor.number.example);
    if (!descriptor.maskLastFour) expect(masked).toBe(`••••${lastFour}`);
    expect(masked.replace(/[^A-Z0-9]/g, "").endsWith(lastFour)).toBe(true);
  });

  it("is offered by the form, which renders its number field with its label and hint", () => {
    // The form's submit navigates with the app router; nothing here submits, so any router will do.
    const html = renderToStaticMarkup(
      <AppRouterContext.Provider value={idleRouter}>
        <RemoteTokenForm
          action={async () => ({ ok: false, error: { code: "INTERNAL", message: "not called" } }) as never}
          idempotencyKey="00000000-0000-4000-8000-000000000000"
          purposes={[{ id: "p", name: "Account opening", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ID_TYPES, isActive: true }]}
          issueTimeoutSeconds={10}
          defaultValues={{ ...emptyRemoteTokenForm(type), purpose: "Account opening" }}
          consent={{ version: 1, text: "The customer agreed." }}
        />
      </AppRouterContext.Provider>,
    );
    expect(html).toContain(`value="${type}"`);
    expect(html).toContain(`name="${descriptor.number.field}"`);
    expect(html).toContain(escapeHtml(descriptor.number.label));
    expect(html).toContain(escapeHtml(descriptor.number.hint));
    if (descriptor.dateOfBirth) expect(html).toContain(`name="${DATE_OF_BIRTH_FIELD}"`);
    else expect(html).not.toContain(`name="${DATE_OF_BIRTH_FIELD}"`);
  });
});

const idleRouter = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} } as never;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

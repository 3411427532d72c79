"use client";

import { ChevronDown, Send } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { useForm, useWatch, type Path } from "react-hook-form";
import type { ActionResult } from "@/lib/actions/result";
import type { PurposePolicy } from "@/lib/compliance/purpose-policy";
import type { IssueTokenResult } from "@/lib/tokens/dto";
import type { CarriableField, RemoteRestartPrefill, RestartSubmission } from "@/lib/tokens/restart-fields";
import { phoneExample } from "@/lib/validation/phone-example";
import { ALL_ID_FIELDS, DATE_OF_BIRTH_FIELD, idFieldsOf, idTypeDescriptor, idTypeLabels, type IdType, type IdTypeDescriptor } from "@/lib/domain/id-types";
import { emptyRemoteTokenForm, type RemoteOptionName, type RemoteTokenForm as RemoteTokenValues, type RemoteTokenFormInput } from "@/lib/validation/token-form-shape";
import type { RemoteTokenActionInput } from "@/lib/validation/token-forms";
import { ConsentConfirmation, type ConsentWording } from "@/components/compliance/consent-confirmation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { cn } from "@/components/ui/cn";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CarriedValue, useCarriedFields } from "./carried-value";
import { DateOfBirthInput } from "./date-of-birth-input";
import { applyActionErrors, focusFirstInvalid } from "@/lib/actions/form-errors";
import { GhanaCardInput } from "./ghana-card-input";
import { IssueFeedback } from "./issue-feedback";
import { IssueProgress } from "./issue-progress";
import { PurposeField, usePurposeIdTypes } from "./purpose-field";
import { loadTokenFormRules, rulesResolver } from "./rules-resolver";
import { useTokenIssuing } from "./use-token-issuing";

export type RemoteTokenAction = (input: RemoteTokenActionInput & RestartSubmission) => Promise<ActionResult<IssueTokenResult>>;

type FieldName = Path<RemoteTokenFormInput>;

const allIdFields = ALL_ID_FIELDS as FieldName[];
/** Every field, in the order the page shows them (focus goes to the first with an error). */
const fieldNames: readonly FieldName[] = [
  "purpose",
  "idType",
  ...allIdFields,
  "phoneNumber",
  "email",
  "referenceId",
  "sendSms",
  "skipInstructions",
  "captureLocation",
  "captureHomeAddress",
  "livenessOnly",
  "consentAttested",
];

const optionCopy: Record<RemoteOptionName, { label: string; description: string }> = {
  sendSms: { label: "Send the link by SMS", description: "The customer gets the verification link as a text message on the phone above." },
  skipInstructions: {
    label: "Skip the instructions",
    description: "The link opens straight at the face capture, without the guidance and confirmation screens.",
  },
  captureLocation: { label: "Capture the device location", description: "Records where the customer's phone is during the verification." },
  captureHomeAddress: { label: "Capture the home address", description: "Asks the customer's device for their home address after the verification." },
  livenessOnly: {
    label: "Liveness check only",
    description: "Checks that a live person is present, without the full KYC match against the ID record.",
  },
};

const optionNames = Object.keys(optionCopy) as RemoteOptionName[];

/** The folded options' one-line summary: what is on, so nothing unusual hides behind the fold. */
export function summariseOptions(values: Partial<Record<RemoteOptionName, boolean | undefined>>): string {
  const on = optionNames.filter((name) => values[name] === true).map((name) => optionCopy[name].label);
  return on.length === 0 ? "No options on: the link is not sent by SMS." : `On: ${on.join(" · ")}.`;
}

/** The number field of a type: where the cursor starts. */
function firstIdField(idType: IdType): FieldName {
  return idTypeDescriptor(idType).number.field as FieldName;
}

/**
 * The remote token form: the ID type decides which ID fields exist (one discriminated union,
 * shared with the server); fields of other types are dropped the moment the type changes. Started
 * from an earlier token (`restart`), the personal fields it kept show masked and the server fills
 * them in (ADR 0038).
 */
export function RemoteTokenForm({
  action,
  idempotencyKey,
  purposes,
  issueTimeoutSeconds,
  defaultValues = emptyRemoteTokenForm(),
  restart,
  consent,
}: {
  action: RemoteTokenAction;
  idempotencyKey: string;
  /** The bank's purposes whose policy allows remote tokens; the picked one limits the ID types. */
  purposes: readonly PurposePolicy[];
  /** How long Veridesk waits for the service's answer (UPSTREAM_ISSUE_TIMEOUT_MS), told to the teller when it is slow. */
  issueTimeoutSeconds: number;
  defaultValues?: RemoteTokenFormInput;
  /** "New token for this customer": the earlier token's values, its personal ones masked. */
  restart?: RemoteRestartPrefill;
  /** The consent wording in force: read out, then attested (ADR 0023). */
  consent: ConsentWording;
}) {
  const carried = useCarriedFields(restart);
  const carriedNames = carried.names;
  // A carried field counts as filled: the server fills it in and checks it.
  const resolver = useMemo(
    () => rulesResolver<RemoteTokenFormInput, RemoteTokenValues>((rules) => (input) => rules.checkRemoteTokenForm(input, carriedNames())),
    [carriedNames],
  );
  const form = useForm<RemoteTokenFormInput, unknown, RemoteTokenValues>({
    resolver,
    defaultValues: { ...(restart?.values ?? defaultValues), consentAttested: false, consentWordingVersion: consent.version },
    mode: "onTouched",
    shouldFocusError: false,
  });
  const { register, handleSubmit, formState, setValue, getFieldState, unregister, control } = form;
  // The union's branches have different fields; read errors by name across all of them.
  const errors = formState.errors as Partial<Record<string, { message?: string }>> & typeof formState.errors;
  const idType = useWatch({ control, name: "idType" });
  const optionValues = useWatch({ control, name: optionNames });
  const [isMoreOpen, setIsMoreOpen] = useState(false);
  const hasOptionError = optionNames.some((name) => errors[name]);
  // The rules load now, after the page, so they are there when the first field is left.
  useEffect(() => void loadTokenFormRules().catch(() => undefined), []);
  // The teller arrives with the ID card in hand: the cursor starts in its number.
  useEffect(() => {
    form.setFocus(firstIdField(form.getValues("idType")));
    // Once, on arrival; later type changes move nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const purpose = useWatch({ control, name: "purpose" });
  const issuing = useTokenIssuing<RemoteTokenValues & RestartSubmission>({
    initialIdempotencyKey: idempotencyKey,
    action,
    applyFieldErrors: (fieldErrors) => {
      // A kept field the server could not fill becomes an input again, its message under it.
      flushSync(() => carried.drop(Object.keys(fieldErrors)));
      // A message for a field this form does not show goes above the buttons, not lost.
      const unplaced = applyActionErrors({ fieldErrors }, form, fieldNames);
      if (unplaced) form.setError("root.server", { type: "server", message: unplaced });
    },
  });
  const submit = (values: RemoteTokenValues, options?: { allowDuplicate?: boolean }) => issuing.submit({ ...values, ...carried.submission() }, options);
  const typeAnother = (name: CarriableField) => {
    flushSync(() => carried.drop([name]));
    form.setFocus(name as FieldName);
  };
  /** A kept field's masked display in place of its input, or null when the teller types it. */
  const carriedDisplay = (name: CarriableField, label: string, describedBy: string | undefined) => {
    const masked = carried.maskedOf(name);
    return masked ? <CarriedValue id={name} label={label} masked={masked} describedBy={describedBy} onTypeAnother={() => typeAnother(name)} /> : null;
  };
  const isBusy = issuing.isBusy;
  const errorOf = (name: string) => errors[name]?.message;
  const ariaFor = (name: string, describedBy: string | undefined) => ({
    "aria-describedby": describedBy,
    "aria-invalid": errors[name] ? true : undefined,
  });

  // Dropping the other types' fields from the form state (not just hiding them) guarantees a
  // number typed under one type can never travel with another.
  function switchIdType(next: IdType) {
    // An ID number kept from the earlier token belongs to its type only.
    carried.drop(allIdFields);
    for (const name of allIdFields) {
      if (!idFieldsOf(next).includes(name)) unregister(name as FieldName, { keepDefaultValue: false });
    }
    form.clearErrors();
  }

  const idTypes = usePurposeIdTypes(purposes, purpose, idType, (next) => {
    setValue("idType", next);
    switchIdType(next);
  });

  // The reference follows the phone until the teller types a reference of their own.
  const followPhone = (event: { target: { value: string } }) => {
    if (getFieldState("referenceId").isDirty) return;
    carried.drop(["referenceId"]);
    setValue("referenceId", event.target.value);
  };

  return (
    <form noValidate onSubmit={handleSubmit(
        (values) => submit(values),
        (invalid) => {
          // A bad option would be focused inside the fold: open it first.
          if (optionNames.some((name) => name in invalid)) setIsMoreOpen(true);
          setTimeout(() => focusFirstInvalid(form, Object.keys(invalid), fieldNames));
        },
      )} aria-label="Remote token">
      <fieldset disabled={isBusy} className="m-0 flex min-w-0 flex-col gap-5 border-0 p-0">
        <Card className="flex flex-col gap-5">
          <h2 className="text-lg font-bold text-ink">Customer&apos;s ID</h2>
          <PurposeField registration={register("purpose")} error={errorOf("purpose")} purposes={purposes} value={purpose} />
          <fieldset className="m-0 border-0 p-0">
            <legend className="mb-2 font-semibold text-ink">ID type</legend>
            <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
              {idTypes.map((type) => (
                <label
                  key={type}
                  className={cn(
                    "flex cursor-pointer items-center gap-2 rounded-control border px-3 py-2.5",
                    idType === type ? "border-brand-700 bg-brand-50 ring-1 ring-brand-700" : "border-line-strong bg-surface hover:bg-surface-sunken",
                  )}
                >
                  <input
                    type="radio"
                    value={type}
                    className="size-4 accent-brand-700"
                    {...register("idType", { onChange: (event: { target: { value: string } }) => switchIdType(event.target.value as IdType) })}
                  />
                  <span className="font-semibold text-ink">{idTypeLabels[type]}</span>
                </label>
              ))}
            </div>
            <p aria-live="polite" className="mt-1 min-h-5 text-sm font-medium text-danger-700">
              {errorOf("idType")}
            </p>
          </fieldset>

          <div className="grid gap-x-5 gap-y-3 md:grid-cols-2" data-testid="id-fields">
            {(() => {
              // The chosen type's fields, as its descriptor (lib/domain/id-types.ts) describes them.
              const descriptor: IdTypeDescriptor = idTypeDescriptor(idType);
              const { field: name, label, hint, check } = descriptor.number;
              return (
                <>
                  <Field key={name} controlId={name} label={label} hint={hint} error={errorOf(name)}>
                    {(describedBy) =>
                      carriedDisplay(name as CarriableField, label, describedBy) ??
                      (check.kind === "ghana-card" ? (
                        <GhanaCardInput id={name} {...register(name as FieldName)} {...ariaFor(name, describedBy)} />
                      ) : (
                        <Input
                          id={name}
                          {...register(name as FieldName)}
                          {...ariaFor(name, describedBy)}
                          autoComplete="off"
                          spellCheck={false}
                          autoCapitalize="characters"
                          className="font-mono tracking-wide"
                        />
                      ))
                    }
                  </Field>
                  {descriptor.dateOfBirth ? (
                    <Field controlId={DATE_OF_BIRTH_FIELD} label="Date of birth (DD/MM/YYYY)" hint={descriptor.dateOfBirth.hint} error={errorOf(DATE_OF_BIRTH_FIELD)}>
                      {(describedBy) =>
                        carriedDisplay(DATE_OF_BIRTH_FIELD, "Date of birth", describedBy) ?? (
                          <DateOfBirthInput<RemoteTokenFormInput>
                            id={DATE_OF_BIRTH_FIELD}
                            name={DATE_OF_BIRTH_FIELD as FieldName}
                            control={control}
                            describedBy={describedBy}
                            isInvalid={Boolean(errors[DATE_OF_BIRTH_FIELD])}
                          />
                        )
                      }
                    </Field>
                  ) : null}
                </>
              );
            })()}
          </div>
        </Card>

        <Card className="flex flex-col gap-5">
          <h2 className="text-lg font-bold text-ink">Where the link goes</h2>
          <div className="grid gap-x-5 gap-y-3 md:grid-cols-2">
            <Field controlId="phoneNumber" label="Customer's mobile number" hint={`A Ghana mobile number, e.g. ${phoneExample}.`} error={errorOf("phoneNumber")}>
              {(describedBy) => (
                // Registered here, in page order, so a failed submit focuses the first bad field.
                carriedDisplay("phoneNumber", "Customer's mobile number", describedBy) ?? (
                  <Input id="phoneNumber" type="tel" {...register("phoneNumber", { onChange: followPhone })} {...ariaFor("phoneNumber", describedBy)} autoComplete="off" />
                )
              )}
            </Field>
            <Field controlId="email" label="E-mail" hint="The link is also sent here." error={errorOf("email")} isOptional>
              {(describedBy) =>
                carriedDisplay("email", "E-mail", describedBy) ?? <Input id="email" type="email" {...register("email")} {...ariaFor("email", describedBy)} autoComplete="off" />
              }
            </Field>
            <Field controlId="referenceId" label="Reference" hint="Follows the phone number unless you type another." error={errorOf("referenceId")}>
              {(describedBy) =>
                carriedDisplay("referenceId", "Reference", describedBy) ?? <Input id="referenceId" {...register("referenceId")} {...ariaFor("referenceId", describedBy)} autoComplete="off" />
              }
            </Field>
          </div>
        </Card>

        <Card className="flex flex-col gap-2 py-4">
          {/* Rarely changed, so folded; the summary says what is on. Kept in the page (hidden),
              so the values and a bad option's focus still work while folded. */}
          <button
            type="button"
            aria-expanded={isMoreOpen || hasOptionError}
            aria-controls="more-options"
            onClick={() => setIsMoreOpen((open) => !open)}
            className="flex min-h-11 w-full items-center gap-3 rounded-control text-left hover:bg-surface-sunken"
          >
            <ChevronDown aria-hidden className={cn("size-5 shrink-0 text-ink-muted transition-transform", (isMoreOpen || hasOptionError) && "rotate-180")} />
            <span className="flex min-w-0 flex-col">
              <span className="text-lg font-bold text-ink">More options</span>
              <span className="text-sm text-ink-muted" data-testid="options-summary">
                {summariseOptions(Object.fromEntries(optionNames.map((name, index) => [name, optionValues[index]])))}
              </span>
            </span>
          </button>
          <div id="more-options" hidden={!(isMoreOpen || hasOptionError)} className="grid gap-x-5 pt-2 md:grid-cols-2">
            {optionNames.map((name) => (
              <CheckboxField key={name} id={name} label={optionCopy[name].label} description={optionCopy[name].description} error={errorOf(name)} {...register(name)} />
            ))}
          </div>
        </Card>

        <ConsentConfirmation wording={consent} registration={register("consentAttested")} error={errorOf("consentAttested") ?? errorOf("consentWordingVersion")} />

        <IssueFeedback
          issuing={issuing}
          serverError={errors.root?.server?.message}
          onIssueAnyway={handleSubmit((values) => submit(values, { allowDuplicate: true }))}
        />

        {/* Always in reach: the Issue button stays on screen however long the form is. */}
        <div data-sticky-action-bar className="sticky bottom-0 z-10 -mx-2 flex flex-wrap items-center justify-end gap-x-4 gap-y-2 border-t border-line bg-surface/95 px-2 py-3 backdrop-blur" data-testid="issue-bar">
          <IssueProgress sendingSince={issuing.sendingSince} timeoutSeconds={issueTimeoutSeconds} />
          <Button type="submit" size="lg" isBusy={isBusy} className="w-full sm:w-auto">
            {isBusy ? null : <Send aria-hidden className="size-5" />}
            {isBusy ? "Issuing token…" : "Issue remote token"}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

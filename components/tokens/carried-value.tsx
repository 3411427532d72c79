"use client";

import { PencilLine } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { CarriableField, RestartSubmission } from "@/lib/tokens/restart-fields";

type Carried = Partial<Record<CarriableField, string>>;

/**
 * The fields a new token keeps from an earlier one (ADR 0038): the page holds a masked display of
 * each, never the value. `names()` is read by the resolver at check time and by the submit, so it
 * comes from a ref that every change updates along with the state.
 */
export function useCarriedFields(restart: { fromTokenRequestId: string; carried: Carried } | undefined) {
  const [carried, setCarried] = useState<Carried>(() => restart?.carried ?? {});
  const current = useRef(carried);
  const names = useCallback(() => Object.keys(current.current) as CarriableField[], []);
  return {
    /** The masked display of a carried field; undefined once the teller types their own. */
    maskedOf: (field: CarriableField) => carried[field],
    names,
    /** The fields become ordinary, empty inputs. */
    drop(fields: readonly string[]) {
      if (!fields.some((field) => field in current.current)) return;
      const next = Object.fromEntries(Object.entries(current.current).filter(([field]) => !fields.includes(field))) as Carried;
      current.current = next;
      setCarried(next);
    },
    /** What a submit adds to the typed fields: the earlier token and the fields kept from it. */
    submission(): RestartSubmission {
      const kept = names();
      return restart && kept.length > 0 ? { restartFrom: restart.fromTokenRequestId, carriedFields: kept } : {};
    },
  };
}

/**
 * A field kept from the earlier token, shown masked ("GHA-•••••789-0 — from the earlier token"),
 * with the way to type another instead. An `<output>`, so the field's label names it.
 */
export function CarriedValue({
  id,
  label,
  masked,
  describedBy,
  onTypeAnother,
}: {
  id: string;
  /** The field's label, so each "Type a different one" says which field it opens. */
  label: string;
  masked: string;
  describedBy: string | undefined;
  onTypeAnother: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-control border border-line bg-surface-sunken px-3 py-2" data-testid={`carried-${id}`}>
      <output id={id} aria-describedby={describedBy} className="min-w-0 flex-1 basis-48">
        <span className="font-mono font-semibold tracking-wide whitespace-nowrap text-ink">{masked}</span>
        <span className="text-ink-muted"> — from the earlier token</span>
      </output>
      <Button type="button" variant="secondary" size="sm" onClick={onTypeAnother}>
        <PencilLine aria-hidden className="size-4" />
        Type a different one<span className="sr-only"> ({label})</span>
      </Button>
    </div>
  );
}

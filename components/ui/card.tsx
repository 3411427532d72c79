import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cn("ui-card rounded-card border border-line bg-surface shadow-sm", className)} {...props} />;
}

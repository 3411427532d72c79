import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Veridesk", template: "%s · Veridesk" },
  description: "Identity verification desk for bank branches",
  robots: { index: false, follow: false },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-surface-muted text-ink antialiased">{children}</body>
    </html>
  );
}

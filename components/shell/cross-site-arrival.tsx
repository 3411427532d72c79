import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";

/**
 * What a page whose opening is recorded shows when another site's link brought the browser here:
 * nothing of the record and nothing written, only Veridesk's own link to it. Following that link
 * opens the page as usual, recorded (lib/auth/request-origin.ts, isOwnSiteNavigation).
 */
export function CrossSiteArrival({ title, href, action }: { title: string; href: string; action: string }) {
  return (
    <div className="mx-auto w-full max-w-xl" data-testid="cross-site-arrival">
      <PageHeader title={title} />
      <Card className="flex flex-col items-start gap-4 p-6">
        <p>You followed a link from another site. Veridesk opens this only from its own pages: nothing was shown or recorded yet.</p>
        <Button asChild>
          <Link href={href} prefetch={false}>
            {action}
          </Link>
        </Button>
      </Card>
    </div>
  );
}

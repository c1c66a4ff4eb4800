import { useSite } from "~/lib/use-site";
import { formatDate } from "~/lib/format";

interface PageHeaderProps {
  title: string;
  lastUpdated?: string;
}

/** The title of a page (policy or writer-made) and, when it shows one, its "Last updated" date. */
export function PageHeader({ title, lastUpdated }: PageHeaderProps) {
  const { timeZone } = useSite();
  return (
    <header className="mb-8 border-b border-slate-200 pb-6 dark:border-slate-800">
      <h1 className="font-serif text-4xl font-bold text-slate-900 dark:text-white">{title}</h1>
      {lastUpdated === undefined ? null : (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Last updated: <time dateTime={lastUpdated}>{formatDate(lastUpdated, timeZone)}</time>
        </p>
      )}
    </header>
  );
}

interface PolicyPageProps {
  title: string;
  lastUpdated: string;
  children: React.ReactNode;
}

export function PolicyPage({ title, lastUpdated, children }: PolicyPageProps) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeader title={title} lastUpdated={lastUpdated} />
      <div className="post-content">{children}</div>
    </article>
  );
}

import { useSite } from "~/lib/use-site";
import { formatDate } from "~/lib/format";

interface PolicyPageProps {
  title: string;
  lastUpdated: string;
  children: React.ReactNode;
}

export function PolicyPage({ title, lastUpdated, children }: PolicyPageProps) {
  const { timeZone } = useSite();
  return (
    <article className="mx-auto max-w-3xl">
      <header className="mb-8 border-b border-slate-200 pb-6 dark:border-slate-800">
        <h1 className="font-serif text-4xl font-bold text-slate-900 dark:text-white">{title}</h1>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Last updated: <time dateTime={lastUpdated}>{formatDate(lastUpdated, timeZone)}</time>
        </p>
      </header>
      <div className="post-content">{children}</div>
    </article>
  );
}

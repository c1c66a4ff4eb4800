import { PageHeader } from "~/components/site/policy-page";

interface PageArticleProps {
  title: string;
  contentHtml: string;
  lastUpdated?: string;
}

/**
 * A page the writer made or edited, as readers see it: the look of the policy pages, with the body stored as HTML.
 * The public page and the private preview show the same thing.
 */
export function PageArticle({ title, contentHtml, lastUpdated }: PageArticleProps) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeader title={title} lastUpdated={lastUpdated} />
      {/* Rendered and sanitised when the page was saved (server/render/post-body.ts). */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: contentHtml }} />
    </article>
  );
}

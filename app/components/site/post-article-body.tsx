import { CategoryBadge } from "~/components/site/category-badge";
import { PostByline } from "~/components/site/post-byline";
import { TagList } from "~/components/site/tag-list";
import { CoverImage } from "~/components/ui/cover-image";
import { type ArticleData, postPath } from "~/lib/post-card-data";

interface PostArticleBodyProps {
  post: ArticleData;
}

/** A post as readers see it: the public page and the private preview show the same thing. */
export function PostArticleBody({ post }: PostArticleBodyProps) {
  return (
    <>
      <CoverImage
        src={post.coverImage}
        alt=""
        fallbackText="Image Not Found"
        priority
        sizes="(min-width: 48rem) 48rem, 100vw"
        className="aspect-[40/21] w-full rounded-2xl"
      />
      <header className="space-y-4">
        {/* What other sites read of the post (microformats2) and readers see elsewhere: its address, summary, last change and cover. */}
        <data className="u-url" value={postPath(post.slug)} />
        <data className="p-summary" value={post.excerpt} />
        <data className="dt-updated" value={post.updatedAt} />
        {post.coverImage ? <data className="u-photo" value={post.coverImage} /> : null}
        <CategoryBadge category={post.category} />
        <h1 className="p-name font-serif text-3xl leading-tight font-bold text-slate-900 sm:text-5xl dark:text-white">
          {post.title}
        </h1>
        <PostByline
          author={post.author}
          createdAt={post.createdAt}
          readingMinutes={post.readingMinutes}
          className="text-base"
        />
      </header>
      {/* Rendered and sanitised when the post was saved (server/render/post-body.ts). */}
      <div className="e-content post-content" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
      <TagList tags={post.tags} />
    </>
  );
}

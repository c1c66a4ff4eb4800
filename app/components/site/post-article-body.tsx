import { CategoryBadge } from "~/components/site/category-badge";
import { PostByline } from "~/components/site/post-byline";
import { TagList } from "~/components/site/tag-list";
import { CoverImage } from "~/components/ui/cover-image";
import type { ArticleData } from "~/lib/post-card-data";

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
        <CategoryBadge category={post.category} />
        <h1 className="font-serif text-3xl leading-tight font-bold text-slate-900 sm:text-5xl dark:text-white">
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
      <div className="post-content" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
      <TagList tags={post.tags} />
    </>
  );
}

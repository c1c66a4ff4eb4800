import { Link } from "react-router";
import { CoverImage } from "~/components/ui/cover-image";
import { truncate } from "~/lib/format";
import { postPath, type PostCardData } from "~/lib/post-card-data";
import { CategoryBadge } from "./category-badge";
import { PostByline } from "./post-byline";
import { TagList } from "./tag-list";

export type PostCardVariant = "featured" | "standard" | "list" | "compact";

/** docs/spec.md §9: the featured card shows more of the excerpt and more tags than the others. */
export const CARD_LIMITS: Record<PostCardVariant, { excerpt: number; tags: number }> = {
  featured: { excerpt: 120, tags: 3 },
  standard: { excerpt: 100, tags: 2 },
  list: { excerpt: 100, tags: 2 },
  compact: { excerpt: 100, tags: 2 },
};

/** `image: null` leaves the cover out: compact cards sit in dense lists where covers would only repeat. */
const LAYOUT: Record<
  PostCardVariant,
  { article: string; image: string | null; sizes: string; body: string; title: string }
> = {
  featured: {
    article: "grid overflow-hidden md:grid-cols-2",
    image: "aspect-[40/21] w-full md:h-full",
    sizes: "(min-width: 48rem) 40rem, 100vw",
    body: "flex flex-col gap-3 p-6 md:p-8",
    title: "text-2xl font-bold lg:text-3xl",
  },
  standard: {
    article: "flex flex-col overflow-hidden",
    image: "aspect-[40/21] w-full",
    sizes: "(min-width: 64rem) 24rem, (min-width: 40rem) 50vw, 100vw",
    body: "flex flex-1 flex-col gap-3 p-5",
    title: "text-lg font-bold",
  },
  list: {
    article: "flex overflow-hidden",
    image: "w-24 shrink-0 self-stretch sm:w-56",
    sizes: "(min-width: 40rem) 14rem, 6rem",
    body: "flex min-w-0 flex-1 flex-col gap-2 p-4 sm:p-5",
    title: "text-base font-bold sm:text-lg",
  },
  compact: {
    article: "flex flex-col",
    image: null,
    sizes: "",
    body: "flex flex-1 flex-col gap-3 p-5",
    title: "text-lg font-bold",
  },
};

interface PostCardProps {
  post: PostCardData;
  variant?: PostCardVariant;
  /** The card's title heading level, one below the section it sits in. */
  headingLevel?: 2 | 3 | 4;
  /** The first card of a page: its cover is the likely Largest Contentful Paint. */
  priority?: boolean;
}

export function PostCard({ post, variant = "standard", headingLevel = 3, priority = false }: PostCardProps) {
  const limits = CARD_LIMITS[variant];
  const layout = LAYOUT[variant];
  const Heading = `h${headingLevel}` as const;
  return (
    <article
      className={`h-entry rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 ${layout.article}`}
    >
      {layout.image ? (
        <CoverImage
          src={post.coverImage}
          alt=""
          fallbackText="Image Not Found"
          className={layout.image}
          loading={variant === "featured" ? "eager" : "lazy"}
          priority={priority}
          sizes={layout.sizes}
        />
      ) : null}
      <div className={layout.body}>
        <Heading className={`leading-snug text-slate-900 dark:text-slate-50 ${layout.title}`}>
          <Link
            to={postPath(post.slug)}
            className="p-name u-url hover:text-indigo-700 hover:underline hover:underline-offset-4 dark:hover:text-indigo-300"
          >
            {post.title}
          </Link>
        </Heading>
        {/* After the title in reading order, above it on screen. */}
        <div className="order-first">
          <CategoryBadge category={post.category} />
        </div>
        <p className="p-summary text-slate-700 dark:text-slate-300">{truncate(post.excerpt, limits.excerpt)}</p>
        <TagList tags={post.tags.slice(0, limits.tags)} />
        <PostByline
          author={post.author}
          createdAt={post.createdAt}
          readingMinutes={post.readingMinutes}
          className="mt-auto pt-1"
        />
      </div>
    </article>
  );
}

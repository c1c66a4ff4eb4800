import { data, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { EmptyList } from "~/components/admin/admin-list";
import { FediverseAddress } from "~/components/admin/fediverse-address";
import { PostCountsTable } from "~/components/admin/fediverse-counts";
import { FediversePager, FollowerTable, PendingTable } from "~/components/admin/fediverse-followers";
import { FediverseSettingsForm } from "~/components/admin/fediverse-settings-form";
import { Notice, Panel } from "~/components/admin/panel";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { FormError } from "~/components/ui/field";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { PAGE_NOT_FOUND_MESSAGE, requireExistingPage } from "~/lib/pagination.server";
import type { RouteErrorData } from "~/lib/route-errors.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { fediverseHandle } from "#domain/fediverse.ts";
import { pageCount, parsePageParam } from "#domain/pagination.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/fediverse";

const LOAD_FAILED_MESSAGE = "Failed to load the fediverse screen. Please try again.";
/** Posts a page in the counts table. */
const COUNTS_PER_PAGE = 20;

/** `?page=` (followers) or `?posts=` (the counts): 1 when absent, a 404 when it names no page. */
function pageParam(url: URL, name: "page" | "posts"): number {
  const page = parsePageParam(url.searchParams.get(name));
  if (page === undefined) throw data<RouteErrorData>({ message: PAGE_NOT_FOUND_MESSAGE }, { status: 404 });
  return page;
}

/**
 * The owner's alone, like Settings and Subscribers: the handle and the blocked list are the
 * site's settings, and the followers are people.
 */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const { services, site } = context.get(appContext);
    const url = new URL(request.url);
    const followersPage = pageParam(url, "page");
    const postsPage = pageParam(url, "posts");
    const [settings, followers, pending, posts] = await Promise.all([
      services.fediverse.settings(),
      services.fediverse.listFollowers({ state: "accepted", page: followersPage }),
      services.fediverse.listFollowers({ state: "pending", page: 1 }),
      services.posts.listPublishedPosts(undefined, postsPage, COUNTS_PER_PAGE),
    ]);
    // The service shows the last page for one past it; an address naming no page is a 404 here, as on every list.
    if (followersPage > followers.pageCount) {
      throw data<RouteErrorData>({ message: PAGE_NOT_FOUND_MESSAGE }, { status: 404 });
    }
    requireExistingPage(posts);
    const counts = await services.fediverse.postCountsFor(posts.items.map((post) => post.id));
    const flash = await takeFlash(request);
    return data(
      {
        address: fediverseHandle(settings.handle, site.siteUrl),
        host: new URL(site.siteUrl).host,
        settings,
        followers: {
          items: followers.items.map(({ id, actorUrl, handle, server, createdAt }) => ({
            id,
            actorUrl,
            handle,
            server,
            createdAt,
          })),
          total: followers.total,
          page: followers.page,
          pageCount: followers.pageCount,
        },
        // Requests left waiting when approval by hand was switched off still need an answer.
        pending:
          settings.approveFollowsByHand || pending.total > 0
            ? { items: pending.items, total: pending.total }
            : undefined,
        posts: {
          page: posts.page,
          pageCount: pageCount(posts),
          items: posts.items.map(({ id, title }) => ({
            id,
            title,
            ...(counts.get(id) ?? { likes: 0, boosts: 0, replies: 0 }),
          })),
        },
        notice: flash.message,
      },
      { headers: flash.headers },
    );
  },
);

/**
 * Settings post to fediverse-settings.tsx, the follower buttons to fediverse-followers.tsx;
 * a refusal renders this page at the child's address, with its message.
 */
export default function Fediverse({ loaderData }: Route.ComponentProps) {
  const { address, host, settings, followers, pending, posts, notice } = loaderData;
  const busy = useNavigation().state === "submitting";
  const settingsResult = useRoute("routes/admin/fediverse-settings")?.actionData;
  const followerResult = useRoute("routes/admin/fediverse-followers")?.actionData;
  return (
    <>
      <title>Fediverse · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Fediverse</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        The blog is an account people follow from Mastodon and other fediverse apps. Only the owner sees this screen.
      </p>

      <div className="mt-6 space-y-4">
        {/* A refusal that follows a notice is not a reload, so the notice is hidden by hand. */}
        <Notice message={settingsResult || followerResult ? undefined : notice} />
        <FormError message={followerResult?.formError} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Panel id="fediverse-address-heading" title="Your handle">
          <FediverseAddress address={address} />
        </Panel>
        <Panel id="fediverse-settings-heading" title="Settings">
          <FediverseSettingsForm settings={settings} host={host} result={settingsResult} busy={busy} />
        </Panel>
      </div>

      {pending ? (
        <section aria-labelledby="fediverse-pending-heading" className="mt-10">
          <h2 id="fediverse-pending-heading" className="text-lg font-semibold">
            Follow requests ({pending.total})
          </h2>
          {pending.items.length === 0 ? (
            <EmptyList className="mt-4">No follow requests wait for you.</EmptyList>
          ) : (
            <PendingTable requests={pending.items} busy={busy} />
          )}
          {pending.total > pending.items.length ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              The newest {pending.items.length} are shown; the others appear as you answer these.
            </p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="fediverse-followers-heading" className="mt-10">
        <h2 id="fediverse-followers-heading" className="text-lg font-semibold">
          Followers ({followers.total})
        </h2>
        {followers.items.length === 0 ? (
          <EmptyList className="mt-4">No followers yet. Share the handle above to get some.</EmptyList>
        ) : (
          <FollowerTable followers={followers.items} page={followers.page} busy={busy} />
        )}
        <FediversePager name="page" page={followers.page} pageCount={followers.pageCount} label="Followers" />
      </section>

      <section aria-labelledby="fediverse-counts-heading" className="mt-10">
        <h2 id="fediverse-counts-heading" className="text-lg font-semibold">
          Likes, boosts and replies
        </h2>
        {posts.items.length === 0 ? (
          <EmptyList className="mt-4">No published posts yet.</EmptyList>
        ) : (
          <PostCountsTable rows={posts.items} />
        )}
        <FediversePager name="posts" page={posts.page} pageCount={posts.pageCount} label="Posts" />
      </section>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}

import { DASHBOARD_DAYS, type DashboardSummary } from "#domain/dashboard.ts";
import type { SessionUser } from "#server/accounts/index.ts";
import type { Services } from "#server/composition.ts";

/**
 * The figures above the Dashboard's posts list, each one indexed count in its own capability
 * (tests/integration/dashboard.test.ts counts the statements), read side by side. Subscribers
 * and followers are the owner's screens, so an editor's dashboard neither shows nor reads them.
 */
export async function loadDashboardSummary(
  services: Services,
  user: SessionUser,
  timeZone: string,
): Promise<DashboardSummary> {
  const owner = user.role === "owner";
  const [posts, pendingComments, traffic, newSubscribers, newFollowers] = await Promise.all([
    services.posts.countUnpublished(),
    services.comments.countPending(),
    services.analyticsReports.lastDays(DASHBOARD_DAYS, timeZone),
    owner ? services.subscribers.countNew(DASHBOARD_DAYS) : undefined,
    owner ? services.fediverse.countNewFollowers(DASHBOARD_DAYS) : undefined,
  ]);
  return { ...posts, pendingComments, ...traffic, newSubscribers, newFollowers };
}

/** The admin dashboard's summary above the posts list (issue 35): each figure links to its screen. */

/** How many days the dashboard's recent figures cover, today included. */
export const DASHBOARD_DAYS = 7;

/** The instant `days` whole days before `now`, as ISO UTC: where "new in the last days" begins. */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}

export interface DashboardSummary {
  drafts: number;
  scheduled: number;
  pendingComments: number;
  views: number;
  visitors: number;
  /** Left out for an editor, who has no Subscribers or Fediverse screen. */
  newSubscribers?: number;
  newFollowers?: number;
}

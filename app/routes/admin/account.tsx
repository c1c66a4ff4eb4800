import Bowser from "bowser";
import { data, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { DisplayNamePanel, PasswordPanel, SessionsPanel, TwoFactorPanel } from "~/components/admin/account-panels";
import { AuthorProfilePanel, AvatarPanel } from "~/components/admin/author-panels";
import { Notice } from "~/components/admin/panel";
import { FormError } from "~/components/ui/field";
import { requireAdmin } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account";

/** "Firefox on Linux": enough to recognise a device, nothing more. */
function describeDevice(userAgent: string): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ?? "Unknown browser";
  return parsed.os.name ? `${browser} on ${parsed.os.name}` : browser;
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
];

/** "3 hours ago": sessions record activity at most hourly, so more precision would mislead. */
function approximately(iso: string, now: number): string {
  const elapsed = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return relative.format(Math.round(elapsed / ms), unit);
  }
  return "just now";
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load your account. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const user = requireAdmin({ request, context });
    const { services, sessionCookie } = context.get(appContext);
    const token = await sessionCookie.read(request);
    const [sessions, twoFactor, enrolment, profile] = await Promise.all([
      services.auth.listSessions(user.id, token),
      services.twoFactor.status(user.id),
      services.twoFactor.pendingEnrolment(user.id),
      services.users.readProfile(user),
    ]);
    const flash = await takeFlash(request);
    const now = Date.now();
    return data(
      {
        user: { displayName: user.username, email: user.email },
        author: { slug: profile.slug, bio: profile.bio, avatar: profile.avatar },
        notice: flash.message,
        sessions: sessions.map((session) => ({
          id: session.idHash,
          device: describeDevice(session.userAgent),
          lastActive: approximately(session.lastSeenAt, now),
          signedIn: approximately(session.createdAt, now),
          current: session.current,
        })),
        twoFactor,
        enrolment: enrolment ? { secret: enrolment.secret, qrCode: enrolment.qrCodeDataUrl } : undefined,
      },
      { headers: flash.headers },
    );
  },
);

/**
 * Each panel's form posts to a child route with one action (account-*.tsx). A refusal renders
 * this page at the child's address, where its answer is that route's action data.
 */
export default function Account({ loaderData }: Route.ComponentProps) {
  const { user, author, notice, sessions, twoFactor, enrolment } = loaderData;
  const busy = useNavigation().state === "submitting";
  const profile = useRoute("routes/admin/account-profile")?.actionData;
  const authorProfile = useRoute("routes/admin/account-author")?.actionData;
  const avatar = useRoute("routes/admin/account-avatar")?.actionData;
  const password = useRoute("routes/admin/account-password")?.actionData;
  const twoFactorResult = useRoute("routes/admin/account-two-factor")?.actionData;
  const sessionsResult = useRoute("routes/admin/account-sessions")?.actionData;
  // The turn-off form shows its own refusal; it is on the page only while two-factor sign-in is.
  const pageError = sessionsResult?.formError ?? (twoFactor.enabled ? undefined : twoFactorResult?.formError);
  // A refusal that follows a notice is not a reload, so the notice is hidden by hand.
  const answered = profile ?? authorProfile ?? avatar ?? password ?? twoFactorResult ?? sessionsResult;

  return (
    <>
      <title>Your account · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Your account</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        {user.displayName} · {user.email}
      </p>
      <div className="mt-6 max-w-3xl space-y-6">
        <Notice message={answered ? undefined : notice} />
        <FormError message={pageError} />
        <TwoFactorPanel status={twoFactor} enrolment={enrolment} result={twoFactorResult} busy={busy} />
        <SessionsPanel sessions={sessions} busy={busy} />
        <DisplayNamePanel displayName={user.displayName} result={profile} busy={busy} />
        <AuthorProfilePanel slug={author.slug} bio={author.bio} result={authorProfile} busy={busy} />
        <AvatarPanel avatar={author.avatar} result={avatar} busy={busy} />
        <PasswordPanel result={password} busy={busy} />
      </div>
    </>
  );
}

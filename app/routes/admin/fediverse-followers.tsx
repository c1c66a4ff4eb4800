import { requireOwner } from "~/lib/auth.server";
import { type FlashKey, redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { formText } from "#domain/forms.ts";
import {
  FOLLOWER_NOT_FOUND_MESSAGE,
  type FollowerAction,
  followerActionForm,
  UNKNOWN_FOLLOWER_ACTION_MESSAGE,
} from "#domain/fediverse-admin.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/fediverse-followers";

const SCREEN = "/admin/fediverse";

const DONE: Record<FollowerAction, FlashKey> = {
  approve: "follower-approved",
  reject: "follower-rejected",
  remove: "follower-removed",
};

/** The page the button was on, and never another site. */
function backTo(formData: FormData): string {
  const back = formText(formData, "back");
  return back === SCREEN || back.startsWith(`${SCREEN}?`) ? back : SCREEN;
}

/**
 * The follower buttons of /admin/fediverse. Each answers the follower's server, so it goes
 * through the federation: Approve sends an Accept; Reject and Remove send a Reject of the
 * Follow, which is how Mastodon's own "remove follower" tells the other side, and drop the row.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireOwner({ request, context });
  const submission = await parseSubmission(request, followerActionForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_FOLLOWER_ACTION_MESSAGE }, 400);
  const { intent, id } = submission.input;
  const { services, federation } = context.get(appContext);
  const done = await perform(
    context,
    async () => {
      // Another tab, or the follower's own Undo, may have got there first.
      if (!(await services.fediverse.findFollower(id))) return false;
      if (intent === "approve") await federation.acceptFollower(id);
      else await federation.rejectFollower(id);
      return true;
    },
    { values: {} },
  );
  if (!done.ok) return done.response;
  if (!done.value) return formFailure({}, { formError: FOLLOWER_NOT_FOUND_MESSAGE }, 404);
  return redirectWithFlash(request, backTo(submission.formData), DONE[intent]);
}

/** A page route, not a resource route: a refusal without JavaScript gets the Fediverse page back with its message. */
export default function FediverseFollowers() {
  return null;
}

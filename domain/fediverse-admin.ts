import { defineForm, formText } from "./forms.ts";
import { z } from "./zod.ts";

export const FOLLOWER_NOT_FOUND_MESSAGE = "That follower is not on the list any more";
export const UNKNOWN_FOLLOWER_ACTION_MESSAGE = "Unknown action";

/** What the Fediverse screen's buttons do to a follower: drop one, or answer a follow request. */
export const FOLLOWER_ACTIONS = ["remove", "approve", "reject"] as const;
export type FollowerAction = (typeof FOLLOWER_ACTIONS)[number];

export const followerActionForm = defineForm({
  fields: ["id"] as const,
  read: (formData: FormData) => ({ intent: formText(formData, "intent"), id: formText(formData, "id") }),
  schema: z.object({
    intent: z.enum(FOLLOWER_ACTIONS, { error: UNKNOWN_FOLLOWER_ACTION_MESSAGE }),
    id: z.string().min(1, FOLLOWER_NOT_FOUND_MESSAGE),
  }),
});

// Where Micropub and IndieAuth answer (server/micropub), named here because every page's head
// announces them and the home page's Link header does too.
import { z } from "./zod.ts";
import { defineForm, formText, formTexts } from "./forms.ts";
export const MICROPUB_PATH = "/micropub";
export const MICROPUB_MEDIA_PATH = "/micropub/media";
export const INDIEAUTH_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const INDIEAUTH_AUTHORIZATION_PATH = "/indieauth/auth";
export const INDIEAUTH_TOKEN_PATH = "/indieauth/token";
export const INDIEAUTH_REVOCATION_PATH = "/indieauth/revoke";
/** The writer's consent screen, where the authorization endpoint sends their browser. */
export const INDIEAUTH_CONSENT_PATH = "/admin/indieauth";

/** What every page's head and the home page's Link header announce, so apps find the endpoints from the blog's address. */
export const MICROPUB_DISCOVERY_LINKS: readonly { rel: string; href: string }[] = [
  { rel: "micropub", href: MICROPUB_PATH },
  { rel: "authorization_endpoint", href: INDIEAUTH_AUTHORIZATION_PATH },
  { rel: "token_endpoint", href: INDIEAUTH_TOKEN_PATH },
  { rel: "indieauth-metadata", href: INDIEAUTH_METADATA_PATH },
];

/** What a token may do (IndieAuth's scopes); `draft` alone creates and edits drafts only. */
export const MICROPUB_SCOPES = ["create", "update", "delete", "media", "draft"] as const;
export type MicropubScope = (typeof MICROPUB_SCOPES)[number];

/** How the consent screen explains each scope to the writer. */
export const MICROPUB_SCOPE_LABELS: Record<MicropubScope, string> = {
  create: "create and publish posts",
  update: "edit posts",
  delete: "delete posts",
  media: "upload images",
  draft: "write drafts",
};

/** The consent screen's answer: allow with the scopes left ticked, or deny. */
export const indieAuthConsentForm = defineForm({
  fields: ["decision", "scope"],
  read: (formData: FormData) => ({ decision: formText(formData, "decision"), scope: formTexts(formData, "scope") }),
  schema: z.object({
    decision: z.enum(["allow", "deny"], { error: "Choose Allow or Deny" }),
    scope: z.array(z.enum(MICROPUB_SCOPES, { error: "Unknown scope" })),
  }),
});

/** Settings → Apps: signing out one app that signed in with IndieAuth. */
export const signOutIndieAuthAppForm = defineForm({
  fields: ["id"],
  read: (formData: FormData) => ({ id: formText(formData, "id") }),
  schema: z.object({ id: z.uuid({ error: "Unknown app" }) }),
});

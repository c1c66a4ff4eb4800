import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/**
 * What a key lets an app do: `drafts` writes and deletes drafts only; `publish` may also
 * publish, schedule, unpublish and change what readers see. Either acts as the account that made it.
 */
export const APP_KEY_SCOPES = ["drafts", "publish"] as const;
export type AppKeyScope = (typeof APP_KEY_SCOPES)[number];

export const APP_KEY_SCOPE_LABELS: Record<AppKeyScope, string> = {
  drafts: "Drafts only",
  publish: "Drafts and publishing",
};

export const APP_NAME_MAX = 60;

export const appNameSchema = z
  .string({ error: "Please name the app" })
  .trim()
  .min(1, "Please name the app")
  .max(APP_NAME_MAX, `The name must be at most ${APP_NAME_MAX} characters`);

export const appKeySchema = z.object({
  name: appNameSchema,
  scope: z.enum(APP_KEY_SCOPES, { error: "Choose what the app may do" }),
});

export type AppKeyInput = z.infer<typeof appKeySchema>;

/** Settings → Apps: a new key for a named app. */
export const appKeyForm = defineForm({
  fields: ["name", "scope"],
  read: (formData: FormData) => ({ name: formText(formData, "name"), scope: formText(formData, "scope") }),
  schema: appKeySchema,
});

/** Settings → Apps: revoking one key. */
export const revokeAppKeyForm = defineForm({
  fields: ["id"],
  read: (formData: FormData) => ({ id: formText(formData, "id") }),
  schema: z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, "Unknown key") }),
});

/** What an app's settings need, shown once when the key is made: none of it is kept readable. */
export interface NewAppKey {
  name: string;
  scope: AppKeyScope;
  /** Ghost's Admin API key, `id:secret` (hex), as Ghost-speaking apps ask for it. */
  adminKey: string;
  /** Ghost's Content API key, for headless front ends. */
  contentKey: string;
  /** A bearer token, kept for the Micropub and XML-RPC dialects. */
  token: string;
}

/** A key as Settings → Apps lists it: never its secrets. */
export interface AppKeySummary {
  id: string;
  name: string;
  scope: AppKeyScope;
  /** The account the key acts as, by its display name. */
  userName: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** The network the last request came from (an IPv4 /24, an IPv6 /48). */
  lastUsedAddress: string | null;
}

export const APP_FAILED_MESSAGES = { DATABASE_UNAVAILABLE: "That did not work. Please try again." } as const;

/** Where WordPress clients look for XML-RPC (MetaWeblog), and the RSD document every page names (rel="EditURI"). */
export const XMLRPC_PATH = "/xmlrpc.php";
export const RSD_PATH = "/rsd.xml";

import { defineForm, formText } from "./forms.ts";
import { z } from "./zod.ts";

export const FEDIVERSE_HANDLE_MAX = 30;
export const FEDIVERSE_BLOCKED_MAX = 20_000;
export const DEFAULT_FEDIVERSE_HANDLE = "blog";

const handleMessage = `The handle must be 1 to ${FEDIVERSE_HANDLE_MAX} letters or digits`;

/**
 * What the blocked list's lines are: a domain (its subdomains too) or an actor's URL. Anything
 * else on a line is refused when the settings are saved, so a typo never silently blocks nobody.
 */
export type BlockedEntry = { kind: "domain"; domain: string } | { kind: "actor"; url: string };

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * A host in the one form the blocked list is matched in: lower case, punycode (a URL's hostname
 * is both already) and without the trailing dot of a fully qualified name, so `spam.example.`
 * is the server `spam.example` names.
 */
export function normalizeHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, "");
}

/** A domain as typed (any case, Unicode or punycode, a trailing dot) as a host; undefined if it is not one. */
function domainHost(text: string): string | undefined {
  // Only a bare name: a path, port, user or query would make the URL below read another host.
  if (!/^[^\s/\\?#@:]+$/.test(text)) return undefined;
  try {
    return normalizeHost(new URL(`http://${text}/`).hostname);
  } catch {
    return undefined;
  }
}

/** An actor's address as the list compares it: its host normalised, without a fragment. */
function actorAddress(url: URL): string {
  const address = new URL(url.href);
  address.hash = "";
  address.hostname = normalizeHost(address.hostname);
  return address.href;
}

/** One line of the blocked list read as an entry; undefined for a line that is neither. */
export function parseBlockedLine(line: string): BlockedEntry | undefined {
  const text = line.trim();
  if (/^https?:\/\//i.test(text)) {
    return URL.canParse(text) ? { kind: "actor", url: actorAddress(new URL(text)) } : undefined;
  }
  // "@example.social" and "*.example.social" read as the domain people mean.
  const domain = domainHost(text.replace(/^(?:\*\.|@)/, ""));
  return domain !== undefined && DOMAIN_PATTERN.test(domain) ? { kind: "domain", domain } : undefined;
}

function blockedLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The blocked list's entries; lines that are neither a domain nor a URL are left out. */
export function parseBlockedList(text: string): BlockedEntry[] {
  return blockedLines(text).flatMap((line) => parseBlockedLine(line) ?? []);
}

/** Whether an actor (by its id) is on the list: its exact URL, or its host or a parent domain of it. */
export function isBlockedBy(entries: readonly BlockedEntry[], actorUrl: URL): boolean {
  const host = normalizeHost(actorUrl.hostname);
  const address = actorAddress(actorUrl);
  return entries.some((entry) =>
    entry.kind === "actor" ? entry.url === address : host === entry.domain || host.endsWith(`.${entry.domain}`),
  );
}

/** The blog's fediverse settings (settings key `fediverse`): the form, the action and what is stored. */
export const fediverseSettingsSchema = z.object({
  /** Only `preferredUsername` and what WebFinger answers: the actor's id never changes with it. */
  handle: z
    .string()
    .trim()
    .min(1, handleMessage)
    .max(FEDIVERSE_HANDLE_MAX, handleMessage)
    .regex(/^[A-Za-z0-9]+$/, handleMessage)
    .default(DEFAULT_FEDIVERSE_HANDLE),
  /** Off: a Follow is accepted at once. On: it waits in the Fediverse screen for the owner. */
  approveFollowsByHand: z.boolean().default(false),
  /** One domain or actor URL a line; their activities are refused. */
  blocked: z
    .string()
    .max(
      FEDIVERSE_BLOCKED_MAX,
      `The blocked list must be at most ${FEDIVERSE_BLOCKED_MAX.toLocaleString("en-US")} characters`,
    )
    .superRefine((text, context) => {
      const lines = text.split(/\r\n?|\n/);
      const wrong = lines.findIndex((line) => line.trim() !== "" && parseBlockedLine(line) === undefined);
      const line = lines[wrong];
      if (line !== undefined) {
        context.addIssue({
          code: "custom",
          message: `Line ${wrong + 1} ("${line.trim().slice(0, 60)}") is neither a domain (example.social) nor an actor address (https://…)`,
        });
      }
    })
    // Stored as matched: each host in its one form (normalizeHost), so the list shows what it blocks.
    .transform((text) =>
      blockedLines(text.replace(/\r\n?/g, "\n"))
        .map((line) => {
          const entry = parseBlockedLine(line);
          return entry === undefined ? line : entry.kind === "domain" ? entry.domain : entry.url;
        })
        .join("\n"),
    )
    .default(""),
});

export type FediverseSettings = z.infer<typeof fediverseSettingsSchema>;

export const DEFAULT_FEDIVERSE_SETTINGS: FediverseSettings = {
  handle: DEFAULT_FEDIVERSE_HANDLE,
  approveFollowsByHand: false,
  blocked: "",
};

export const fediverseSettingsForm = defineForm({
  fields: ["handle", "approveFollowsByHand", "blocked"],
  read: (formData: FormData) => ({
    handle: formText(formData, "handle"),
    approveFollowsByHand: formData.get("approveFollowsByHand") === "on",
    blocked: formText(formData, "blocked"),
  }),
  schema: fediverseSettingsSchema,
});

export type FediverseSettingsField = (typeof fediverseSettingsForm.fields)[number];

/** "@blog@example.com": what a person types into their fediverse app's search to find the blog. */
export function fediverseHandle(handle: string, siteUrl: string): string {
  return `@${handle}@${new URL(siteUrl).host}`;
}

export const FOLLOWER_STATES = ["accepted", "pending"] as const;
export type FollowerState = (typeof FOLLOWER_STATES)[number];

/** A follower as the admin screen lists it. */
export interface Follower {
  id: string;
  actorUrl: string;
  handle: string;
  server: string;
  state: FollowerState;
  createdAt: string;
}

export const REACTION_KINDS = ["like", "announce"] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];

/** What the fediverse did with one post: likes, boosts (Announce) and replies (held ones included). */
export interface PostFediverseCounts {
  likes: number;
  boosts: number;
  replies: number;
}

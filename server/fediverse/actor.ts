import type { Federation } from "@fedify/fedify";
import { Endpoints, Person, PropertyValue } from "@fedify/vocab";
import type { FediverseSettings } from "#domain/fediverse.ts";
import type { SiteSettings } from "#domain/site-settings.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { escapeHtml } from "#domain/escape.ts";
import { SITE_ICON_PATHS } from "#domain/site-look.ts";
import { BLOG_ACTOR, imageAt } from "./articles.ts";

/** How many followers one page of the followers collection, and one read while delivering, holds. */
const FOLLOWERS_PAGE = 200;

/** What the actor reads from the rest of the blog; `services.fediverse` gives the follower side. */
export interface ActorSources {
  siteUrl: string;
  readSite: () => Promise<SiteSettings>;
  readSettings: () => Promise<FediverseSettings>;
  keyPairs: readonly CryptoKeyPair[];
  followers: {
    followerInboxes(options: { cursor: string | null; limit: number }): Promise<{
      items: { actorUrl: string; inboxUrl: string; sharedInboxUrl: string | null }[];
      nextCursor: string | null;
    }>;
    countFollowers(): Promise<{ accepted: number }>;
  };
}

/** Where the actor and its collections live; the inboxes are set by server/federation/inbox.ts. */
const ACTOR_PATHS = {
  actor: "/ap/users/{identifier}",
  followers: "/ap/users/{identifier}/followers",
  following: "/ap/users/{identifier}/following",
} as const;

/**
 * The blog as one actor, `blog` (docs/decisions/0015-fediverse.md): WebFinger maps the handle
 * from the settings to it, so a new handle changes only `preferredUsername` and what WebFinger
 * answers, never the actor's id, and every follow keeps working.
 */
export function registerActor(federation: Federation<void>, sources: ActorSources): void {
  const { siteUrl } = sources;
  federation
    .setActorDispatcher(ACTOR_PATHS.actor, async (context, identifier) => {
      if (identifier !== BLOG_ACTOR) return null;
      const [site, settings, keys] = await Promise.all([
        sources.readSite(),
        sources.readSettings(),
        context.getActorKeyPairs(identifier),
      ]);
      const link = (name: string, href: string) =>
        new PropertyValue({ name, value: `<a href="${escapeHtml(href)}" rel="me">${escapeHtml(href)}</a>` });
      return new Person({
        id: context.getActorUri(identifier),
        preferredUsername: settings.handle,
        name: site.title,
        summary: site.description ? `<p>${escapeHtml(site.description)}</p>` : null,
        url: new URL(absoluteUrl(siteUrl, "/")),
        inbox: context.getInboxUri(identifier),
        outbox: context.getOutboxUri(identifier),
        followers: context.getFollowersUri(identifier),
        following: context.getFollowingUri(identifier),
        endpoints: new Endpoints({ sharedInbox: context.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((pair) => pair.multikey),
        // Mastodon and most apps show no SVG avatar: the uploaded icon's PNG when there is one.
        icon: imageAt(siteUrl, site.siteIcon ? SITE_ICON_PATHS.manifestLarge.path : "/favicon.svg") ?? null,
        attachments: [link("About", site.aboutUrl), link("Source", site.sourceUrl)],
        manuallyApprovesFollowers: settings.approveFollowsByHand,
        discoverable: true,
      });
    })
    .setKeyPairsDispatcher((_context, identifier) => (identifier === BLOG_ACTOR ? [...sources.keyPairs] : []))
    .mapHandle(async (_context, username) => {
      const { handle } = await sources.readSettings();
      return username.toLowerCase() === handle.toLowerCase() ? BLOG_ACTOR : null;
    });

  federation
    .setFollowersDispatcher(ACTOR_PATHS.followers, async (_context, identifier, cursor) => {
      if (identifier !== BLOG_ACTOR) return null;
      // No cursor: every accepted follower at once, which is how Fedify reads them to deliver.
      if (cursor === null) {
        const items = [];
        let next: string | null = null;
        do {
          const page = await sources.followers.followerInboxes({ cursor: next, limit: FOLLOWERS_PAGE });
          items.push(...page.items.map(toRecipient));
          next = page.nextCursor;
        } while (next !== null);
        return { items };
      }
      const page = await sources.followers.followerInboxes({ cursor: cursor || null, limit: FOLLOWERS_PAGE });
      return { items: page.items.map(toRecipient), nextCursor: page.nextCursor };
    })
    .setFirstCursor(() => "")
    .setCounter(async (_context, identifier) =>
      identifier === BLOG_ACTOR ? (await sources.followers.countFollowers()).accepted : null,
    );

  // The blog follows nobody: an empty collection, so servers that ask get an answer.
  federation
    .setFollowingDispatcher(ACTOR_PATHS.following, (_context, identifier) =>
      identifier === BLOG_ACTOR ? { items: [] } : null,
    )
    .setCounter((_context, identifier) => (identifier === BLOG_ACTOR ? 0 : null));
}

function toRecipient(follower: { actorUrl: string; inboxUrl: string; sharedInboxUrl: string | null }) {
  return {
    id: new URL(follower.actorUrl),
    inboxId: new URL(follower.inboxUrl),
    endpoints: follower.sharedInboxUrl ? { sharedInbox: new URL(follower.sharedInboxUrl) } : null,
  };
}

import type { Kysely } from "kysely";
import {
  DEFAULT_FOOTER_TEXT,
  DEFAULT_HOME_HEADLINE,
  DEFAULT_HOME_INTRODUCTION,
  DEFAULT_SITE_DESCRIPTION,
  DEFAULT_SITE_TITLE,
  type SiteSettings,
  siteSettingsFormSchema,
  type SiteSettingsFormInput,
  siteSettingsSchema,
} from "#domain/site-settings.ts";
import type { Navigation, NavigationChangeResult } from "#domain/navigation.ts";
import { isDomainError } from "#domain/errors.ts";
import { POSTS_PER_PAGE } from "#domain/pagination.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import { siteSettingsRecord } from "./repositories/site-settings.ts";
import { makeLogo, makeSiteIcon, type MediaFile, type MediaStore, type SiteImage } from "../media/index.ts";
import type { Actor, AuditAction, AuditLog } from "../accounts/index.ts";
import { renderMarkdownSnippet } from "../render/index.ts";

/** What a blog that never saved its settings shows: the environment's links, the built-in texts. */
export function defaultSiteSettings(links: { aboutUrl: string; sourceUrl: string }): SiteSettings {
  return {
    title: DEFAULT_SITE_TITLE,
    description: DEFAULT_SITE_DESCRIPTION,
    aboutUrl: links.aboutUrl,
    sourceUrl: links.sourceUrl,
    postsPerPage: POSTS_PER_PAGE,
    timeZone: "UTC",
    footerText: DEFAULT_FOOTER_TEXT,
    homeHeadline: DEFAULT_HOME_HEADLINE,
    homeIntroduction: DEFAULT_HOME_INTRODUCTION,
    emailFromName: "",
    emailReplyTo: "",
    accentColor: "",
    bodyTypeface: "sans",
    logo: "",
    siteIcon: "",
    navigation: null,
  };
}

/** The two images a writer may upload in Settings; what each keeps in the settings. */
export type SiteImageKind = "logo" | "siteIcon";
const SITE_IMAGE_MAKERS: Record<SiteImageKind, (bytes: Buffer, type: string) => Promise<SiteImage>> = {
  logo: makeLogo,
  siteIcon: makeSiteIcon,
};
/** The settings the settings form edits; anything else a caller hands `update` is left as stored. */
const FORM_KEYS = Object.keys(siteSettingsFormSchema.shape) as (keyof SiteSettingsFormInput)[];
const settingValue = (kind: SiteImageKind, image: SiteImage) =>
  kind === "logo" ? `${image.hash}:${image.width}x${image.height}` : image.hash;

export interface SiteSettingsDeps {
  db: Kysely<Database>;
  now: () => Date;
  defaults: SiteSettings;
  audit: AuditLog;
  /** Where the logo's and the icon's files are kept, beside the media library's. */
  store: MediaStore;
  settingsStore: SettingsStore;
}

export function createSiteSettingsService({ db, now, defaults, audit, store, settingsStore }: SiteSettingsDeps) {
  // One row of its own (site_settings), older than the settings table, with a version column.
  const settings = settingsStore.define({
    key: "site",
    schema: siteSettingsSchema,
    defaults,
    record: siteSettingsRecord(db, now),
  });

  // The introduction's HTML, made once per text on each server: the home page asks for it on every uncached view.
  let introduction = { source: "", html: "" };
  function introductionHtml(source: string): string {
    if (source !== introduction.source) introduction = { source, html: renderMarkdownSnippet(source) };
    return introduction.html;
  }

  async function save(next: SiteSettings, action: AuditAction, detail: string, actor: Actor) {
    const saved = await settings.save(next);
    await audit.record(actor, action, detail);
    return saved;
  }

  /** One image's setting over the stored settings, read afresh, so a save a moment ago on another server survives. */
  async function saveImageSetting(kind: SiteImageKind, value: string, actor: Actor): Promise<SiteSettings> {
    const current = await settings.readFresh();
    return save({ ...current, [kind]: value }, "settings-changed", kind, actor);
  }

  return {
    /**
     * The settings for this request. Read at most once a second from the database, so a save
     * on any app server shows everywhere within a second (the settings store's worker notices
     * it even while no request asks). While the database is out of reach, pages still get the
     * last settings seen (or the defaults); their own queries report the outage.
     */
    async current(): Promise<SiteSettings> {
      try {
        return await settings.read();
      } catch (error) {
        if (!isDomainError(error, "DATABASE_UNAVAILABLE")) throw error;
        return settings.lastRead();
      }
    },

    /**
     * The home page's welcome block as readers get it: the headline as text, the introduction's
     * Markdown rendered and sanitised (server/render). Empty strings hide them.
     */
    async homeHero(): Promise<{ headline: string; introductionHtml: string }> {
      const { homeHeadline, homeIntroduction } = await this.current();
      return { headline: homeHeadline, introductionHtml: introductionHtml(homeIntroduction) };
    },

    /**
     * Saves the settings form. The logo, the icon and the menus are not part of it: they keep
     * what is stored, read afresh (not from the one-second cache), so an image or a menu saved
     * a moment ago, on this server or another, survives a form read before it.
     */
    async update(input: SiteSettingsFormInput, actor: Actor): Promise<SiteSettings> {
      const current = await settings.readFresh();
      const next: SiteSettings = { ...current };
      for (const key of FORM_KEYS) Object.assign(next, { [key]: input[key] });
      const changed = FORM_KEYS.filter((key) => current[key] !== next[key]);
      return save(next, "settings-changed", changed.join(", "), actor);
    },

    /**
     * Saves the menus that `change` makes of the stored ones (read afresh, not from the
     * one-second cache). Every server's page cache drops its pages, as for any settings
     * change, so readers see the new menus at once.
     */
    async updateNavigation(
      change: (saved: Navigation | null) => Promise<NavigationChangeResult>,
      actor: Actor,
    ): Promise<NavigationChangeResult> {
      const current = await settings.readFresh();
      const outcome = await change(current.navigation);
      if (outcome.ok) {
        await save({ ...current, navigation: outcome.navigation }, "navigation-changed", outcome.summary, actor);
      }
      return outcome;
    },

    /**
     * Resizes an uploaded logo or icon once, here (docs/decisions/0017), keeps its files in
     * the media store and saves the settings that point at them; the page cache drops its pages.
     */
    async saveImage(
      kind: SiteImageKind,
      upload: { bytes: Buffer; declaredType: string },
      actor: Actor,
    ): Promise<SiteSettings> {
      const image = await SITE_IMAGE_MAKERS[kind](upload.bytes, upload.declaredType);
      await store.put(image.hash, image.files);
      return saveImageSetting(kind, settingValue(kind, image), actor);
    },

    /** Back to the product's own: no logo, or today's favicon. */
    async removeImage(kind: SiteImageKind, actor: Actor): Promise<SiteSettings> {
      return saveImageSetting(kind, "", actor);
    },

    /** One size of the site icon, or undefined while the writer has none (or that size is not made). */
    async iconFile(size: number): Promise<MediaFile | undefined> {
      const { siteIcon } = await this.current();
      if (!siteIcon) return undefined;
      return store.get(siteIcon, size, "png");
    },

    /**
     * Called whenever this server learns of new settings: its own save, or another server's
     * (within a second). Returns the unsubscribe.
     */
    onChange(listener: (settings: SiteSettings) => void): () => void {
      return settings.onChange(listener);
    },
  };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettingsService>;

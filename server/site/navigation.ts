import {
  applyNavigationChange,
  linksBuiltInPages,
  type Navigation,
  type NavigationChange,
  type NavigationChangeResult,
  type NavigationLink,
  navigationOrDefault,
  navigationPageIds,
  resolveNavigationLinks,
} from "#domain/navigation.ts";
import type { SiteSettings } from "#domain/site-settings.ts";
import type { Actor } from "../accounts/index.ts";
import type { PageService } from "../pages/index.ts";
import type { CategoryService } from "../posts/index.ts";
import type { SiteSettingsService } from "./settings.ts";

/**
 * The menus (docs/decisions/0019-navigation.md) live in the site's settings, which every app
 * server watches: a save there clears each server's page cache within a second.
 */
export interface NavigationServices {
  siteSettings: Pick<SiteSettingsService, "updateNavigation">;
  pages: Pick<PageService, "getPageForEditing" | "resolvePublicPageSlugs" | "resolveBuiltInPageSlugs">;
  categories: Pick<CategoryService, "addresses" | "list">;
}

export interface SiteNavigationLinks {
  header: NavigationLink[];
  footer: NavigationLink[];
}

const NO_SLUGS: ReadonlyMap<string, string> = new Map();

type SiteLinks = Pick<SiteSettings, "navigation" | "aboutUrl" | "sourceUrl">;

function resolveMenus(
  navigation: Navigation,
  site: SiteLinks,
  pageSlugs: ReadonlyMap<string, string>,
  builtInPageSlugs: ReadonlyMap<string, string>,
  categories?: ReadonlyMap<string, string>,
): SiteNavigationLinks {
  const addresses = { aboutUrl: site.aboutUrl, sourceUrl: site.sourceUrl, pageSlugs, builtInPageSlugs, categories };
  return {
    header: resolveNavigationLinks(navigation.header, addresses),
    footer: resolveNavigationLinks(navigation.footer, addresses),
  };
}

/** What a reader's page shows of the menus, and the owner's changes: the settings plus the pages they name. */
export function createNavigationService({ siteSettings, pages, categories }: NavigationServices) {
  /** The stored menus, or the defaults with the writer's categories. */
  async function currentMenus(saved: Navigation | null): Promise<Navigation> {
    return (
      saved ??
      navigationOrDefault(
        null,
        (await categories.list()).map((category) => category.name),
      )
    );
  }

  return {
    /**
     * The links a reader's page shows, page targets at their current slugs and category targets
     * at their categories' (the defaults' footer: the writer's first four); a draft or deleted
     * page's link, or a deleted category's, is left out. At most four queries, and for menus that
     * name no page and no category, none.
     */
    async links(site: SiteLinks): Promise<SiteNavigationLinks> {
      const namesCategories =
        site.navigation === null ||
        [...site.navigation.header, ...site.navigation.footer].some((item) => item.target.kind === "category");
      const known = namesCategories ? await categories.addresses() : undefined;
      const navigation = navigationOrDefault(site.navigation, known?.names);
      const ids = navigationPageIds(navigation);
      const [pageSlugs, builtInPageSlugs] = await Promise.all([
        ids.length > 0 ? pages.resolvePublicPageSlugs(ids) : NO_SLUGS,
        linksBuiltInPages(navigation) ? pages.resolveBuiltInPageSlugs() : NO_SLUGS,
      ]);
      return resolveMenus(navigation, site, pageSlugs, builtInPageSlugs, known?.addresses);
    },

    /** The menus as the owner's screen lists them: the stored ones, or the defaults with the writer's categories. */
    menus: (site: Pick<SiteSettings, "navigation">) => currentMenus(site.navigation),

    /** The menus while the database is out of reach: every link but those to pages. */
    offlineLinks(site: SiteLinks): SiteNavigationLinks {
      return resolveMenus(navigationOrDefault(site.navigation), site, NO_SLUGS, NO_SLUGS);
    },

    /**
     * Makes one change to the menus and saves them (audited "navigation-changed"). A link to a
     * page must name one that exists (PAGE_NOT_FOUND otherwise); a draft may be linked, and
     * shows once published. A refusal the menus themselves make (too many links, a link
     * already gone) comes back as `{ ok: false, message }`.
     */
    async change(change: NavigationChange, actor: Actor): Promise<NavigationChangeResult> {
      if (change.action === "add" && change.link.target.kind === "page") {
        await pages.getPageForEditing(change.link.target.id);
      }

      return siteSettings.updateNavigation(
        async (saved) => applyNavigationChange(await currentMenus(saved), change),
        actor,
      );
    },
  };
}

export type NavigationService = ReturnType<typeof createNavigationService>;

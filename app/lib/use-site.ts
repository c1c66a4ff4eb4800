import { useContext } from "react";
import { UNSAFE_DataRouterDataContext } from "react-router";
import type { SiteSettings } from "#domain/site-settings.ts";
import { DEFAULT_FOOTER_TEXT, DEFAULT_SITE_DESCRIPTION, DEFAULT_SITE_TITLE } from "#domain/site-defaults.ts";

/**
 * The site's settings as the root loader read them for this request (Settings, or the
 * defaults). Read from the router's data context (where React Router 8 keeps loader data;
 * its state context no longer carries it) rather than with useRouteLoaderData, so shared
 * components still render outside a router (component tests) with the defaults.
 */
export function useSite() {
  const loaderData = useContext(UNSAFE_DataRouterDataContext)?.loaderData as Record<string, unknown> | undefined;
  const site = (loaderData?.root as { site?: SiteSettings } | undefined)?.site;
  return {
    title: site?.title ?? DEFAULT_SITE_TITLE,
    description: site?.description ?? DEFAULT_SITE_DESCRIPTION,
    footerText: site?.footerText ?? DEFAULT_FOOTER_TEXT,
    timeZone: site?.timeZone ?? "UTC",
    accentColor: site?.accentColor ?? "",
    bodyTypeface: site?.bodyTypeface ?? "sans",
    logo: site?.logo ?? "",
    siteIcon: site?.siteIcon ?? "",
  };
}

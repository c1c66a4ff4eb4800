import express from "express";
import { MANIFEST_PATH, SITE_ICON_PATHS } from "#domain/site-look.ts";
import { answerOutage, sendFile } from "./http.ts";
import type { Services } from "../composition.ts";

/** Fixed addresses browsers ask for on their own: a new icon reaches them within the hour. */
const ICON_CACHE = "public, max-age=3600";

/**
 * The writer's site icon at the addresses browsers ask for, and the web app manifest naming it
 * (docs/decisions/0017), answered by Express ahead of React Router like the media files. While
 * no icon is uploaded these paths fall through, so the site answers them exactly as before.
 */
export function createSiteIconRoutes({ services }: { services: Services }) {
  const router = express.Router();
  const { siteSettings } = services;

  for (const { path, size } of Object.values(SITE_ICON_PATHS)) {
    router.get(path, async (req, res, next) => {
      try {
        const { siteIcon } = await siteSettings.current();
        const file = siteIcon ? await siteSettings.iconFile(size) : undefined;
        if (!file) return next();
        sendFile(req, res, Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), {
          etag: `"${siteIcon}-${size}"`,
          type: "image/png",
          cacheControl: ICON_CACHE,
        });
      } catch (error) {
        answerOutage(error, res, next);
      }
    });
  }

  router.get(MANIFEST_PATH, async (_req, res, next) => {
    try {
      const settings = await siteSettings.current();
      if (!settings.siteIcon) return next();
      const icons = [SITE_ICON_PATHS.manifestSmall, SITE_ICON_PATHS.manifestLarge].map(({ path, size }) => ({
        src: path,
        sizes: `${size}x${size}`,
        type: "image/png",
      }));
      res.set({ "Cache-Control": ICON_CACHE, "Content-Type": "application/manifest+json; charset=utf-8" }).send(
        JSON.stringify({
          name: settings.title,
          short_name: settings.title,
          start_url: "/",
          display: "browser",
          icons,
        }),
      );
    } catch (error) {
      answerOutage(error, res, next);
    }
  });

  return router;
}

// The media capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { createMediaFileRoutes } from "./http.ts";
export { type Multipart, type MultipartLimits, readMultipart, type ReceivedFile } from "./multipart.ts";
export { sha256Hex } from "./process.ts";
export { createDatabaseMediaStore } from "./repositories/media-store.ts";
export * as mediaRepository from "./repositories/media.ts";
export {
  findMedia,
  findMediaByHashes,
  insertMedia,
  MEDIA_COLUMNS,
  PAGE_MEDIA_USES,
  replaceMediaUses,
  replaceMediaUsesIn,
} from "./repositories/media.ts";
export { createMediaService, describeMedia, type MediaService } from "./service.ts";
export { loadSharp } from "./sharp.ts";
export { createSiteIconRoutes } from "./site-icons-http.ts";
export {
  AVATAR_SIZES,
  LOGO_HEIGHT,
  LOGO_MAX_WIDTH,
  makeAvatar,
  makeLogo,
  makeSiteIcon,
  SITE_ICON_SIZES,
  type SiteImage,
} from "./site-images.ts";
export type { MediaFile, MediaStore } from "./store.ts";

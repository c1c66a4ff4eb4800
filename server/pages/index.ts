// The pages capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { deletePage, insertPage, isPageSlugTaken, selectPublicPages } from "./repositories/pages.ts";
export { createPageService, type PageService } from "./service.ts";

// The render capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { rewriteHtmlUrls } from "./absolute-urls.ts";
export { linksToPreview, renderMarkdownSnippet, renderPostBody } from "./post-body.ts";
export type { LinkPreview, LinkPreviews } from "./embeds.ts";

// The posts capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { type ArrivalMark, findUnmarkedArrivals, markArrival } from "./repositories/arrivals.ts";
export * as postRevisionsRepository from "./repositories/post-revisions.ts";
export { PAGE_REVISIONS, recordRevisionIn } from "./repositories/post-revisions.ts";
export { publicSummariesInOrder, selectPublicPosts } from "./repositories/posts-public.ts";
export { escapeLikePattern, loadTags, postFieldsFromRow, selectPostsAtAddress } from "./repositories/posts-rows.ts";
export {
  countPosts,
  findPostById,
  findPostIdByAddress,
  insertPosts,
  isSlugTaken,
  type NewPost,
} from "./repositories/posts.ts";
export * as previewTokensRepository from "./repositories/preview-tokens.ts";
export { deletePreviewTokens, PAGE_PREVIEWS } from "./repositories/preview-tokens.ts";
export {
  createPostService,
  type PostLife,
  type PostLifeHook,
  type PostService,
  type SaveWork,
  toPostDraft,
  type Writer,
} from "./service.ts";
export { createWritersDesk } from "./writers-desk.ts";
export { describeCategory, findCategoryByName, listCategories } from "./repositories/categories.ts";
export {
  addMissingCategories,
  type CategoryAtAddress,
  type CategoryService,
  createCategoryService,
} from "./categories.ts";

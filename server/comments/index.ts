// The comments capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export {
  type CommentLife,
  type CommentMoment,
  type CommentWork,
  type CommentService,
  createCommentService,
} from "./service.ts";

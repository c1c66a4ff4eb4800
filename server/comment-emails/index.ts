// The comment emails capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { type CommentEmails, createCommentEmails, REPLY_EMAILS_PER_DAY } from "./service.ts";

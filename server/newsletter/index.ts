// The newsletter capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { composeNoticeEmail, type EmailSite, type NoticeEmail } from "./email.ts";
export { type AccountEmails, createAccountEmails } from "./account-emails.ts";
export { createEmailServer, type EmailServer, type MailTransport } from "./email-server.ts";
export { createMailer } from "./mailer.ts";
export { type CommentReader, createOutbox, type Outbox, type OutboxTuning, UNSUBSCRIBE_PLACEHOLDER } from "./outbox.ts";
export { createPostNewsletter } from "./post-newsletter.ts";
export { insertSubscribers, type SubscriberRow } from "./repositories/subscribers.ts";
export { createSubscriberAdmin } from "./subscriber-admin.ts";
export { csvCell } from "./subscriber-csv.ts";
export { createSubscriptionService, createSubscriptionTokens } from "./subscriptions.ts";

import { INVITATION_TTL_MS, PASSWORD_RESET_TTL_MS } from "#domain/account.ts";
import { composeNoticeEmail, type EmailSite } from "./email.ts";
import type { Outbox } from "./outbox.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Emails about accounts: an invitation's link goes to the invited address while email is on,
 * through the outbox like every email, beside the link the owner can still copy and pass on.
 */
export function createAccountEmails({
  outbox,
  isEmailOn,
  readSite,
}: {
  outbox: Outbox;
  isEmailOn: () => Promise<boolean>;
  readSite: () => Promise<EmailSite>;
}) {
  return {
    /** Queues the invitation's email; false while email is off, when the link goes only by hand. */
    async sendInvitation({ to, link, invitedBy }: { to: string; link: string; invitedBy: string }): Promise<boolean> {
      if (!(await isEmailOn())) return false;
      const site = await readSite();
      const email = composeNoticeEmail(site, {
        subject: `${invitedBy} invited you to write on ${site.title}`,
        lead: `${invitedBy} invited you to write on ${site.title}. Choose your password to join; the link works once, for ${INVITATION_TTL_MS / DAY_MS} days.`,
        quotes: [],
        action: { href: link, label: "Accept the invitation" },
        footerNote: `You get this email because ${invitedBy} invited ${to}. If you did not expect it, ignore it.`,
      });
      await outbox.enqueueSingle({ to, ...email });
      return true;
    },

    /** Queues a password reset link for an account's address; false while email is off. */
    async sendPasswordReset({ to, link }: { to: string; link: string }): Promise<boolean> {
      if (!(await isEmailOn())) return false;
      const site = await readSite();
      const email = composeNoticeEmail(site, {
        subject: `Choose a new password for ${site.title}`,
        lead: `Someone asked to reset the password of ${to} on ${site.title}. Choose a new one with this link; it works once, for ${PASSWORD_RESET_TTL_MS / 60_000} minutes.`,
        quotes: [],
        action: { href: link, label: "Choose a new password" },
        footerNote: "If you did not ask, ignore this email: your password stays as it is.",
      });
      await outbox.enqueueSingle({ to, ...email });
      return true;
    },
  };
}

export type AccountEmails = ReturnType<typeof createAccountEmails>;

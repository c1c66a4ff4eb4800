/** What nodemailer puts on an error: its own code, and the SMTP server's answer when there was one. */
interface SmtpErrorFields {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

/** The server's answer without its status code, which says nothing to a writer. */
function answerOf(fields: SmtpErrorFields): string {
  return (fields.response ?? "").replace(/^\d{3}[ -](\d\.\d+\.\d+ )?/, "").trim();
}

/**
 * A failed test email in plain words: what went wrong and, where it helps, what to check. The
 * mail server's own answer is quoted after it, since only it knows its reasons.
 */
export function describeSmtpFailure(error: unknown, where: { host: string; port: number }, to: string): string {
  const fields: SmtpErrorFields = error !== null && typeof error === "object" ? (error as SmtpErrorFields) : {};
  const message = error instanceof Error ? error.message : String(error);
  const answer = answerOf(fields);
  const quoted = answer ? ` It answered: “${answer}”` : "";
  const tls = /TLS|SSL|certificate|wrong version number|self.signed/i.test(message);
  switch (fields.code) {
    case "EAUTH":
    case "ENOAUTH":
      return `The mail server refused the password (or the user name).${quoted}`;
    case "EDNS":
      return `Could not find a mail server named ${where.host}. Check its name.`;
    case "ETLS":
    case "EREQUIRETLS":
      return `Could not start a secure connection with ${where.host} on port ${where.port}. Check the security setting: TLS is usually port 465, STARTTLS port 587.`;
    case "EENVELOPE":
      return `The mail server refused to send to ${to}.${quoted}`;
    case "EMESSAGE":
      return `The mail server refused the message.${quoted}`;
    case "ECONNECTION":
    case "ESOCKET":
    case "ETIMEDOUT":
      if (tls) {
        return `Could not start a secure connection with ${where.host} on port ${where.port}. Check the security setting: TLS is usually port 465, STARTTLS port 587.`;
      }
      return `Could not reach ${where.host} on port ${where.port}. Check the name and the port, and that the mail server lets this machine in.`;
    default:
      if (fields.responseCode && fields.responseCode >= 500) return `The mail server refused the email.${quoted}`;
      if (fields.responseCode) return `The mail server could not take the email just now; try again later.${quoted}`;
      return `Could not reach ${where.host} on port ${where.port}.`;
  }
}

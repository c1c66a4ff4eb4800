// Subscriber lists as CSV: reading ours, Ghost's members export and Substack's subscriber export,
// and writing ours. Why imported addresses are active only with consent: docs/decisions/0014.
import { DomainError } from "#domain/errors.ts";
import { subscribeSchema, type Subscriber } from "#domain/newsletter.ts";
import { SUBSCRIBER_CSV_MAX_BYTES, SUBSCRIBER_CSV_TOO_LARGE_MESSAGE } from "#domain/subscribers.ts";

/** What a CSV holds for the list: the valid addresses with their line, and what was left out. */
export interface ReadSubscriberCsv {
  addresses: { line: number; email: string }[];
  notSubscribed: number;
  invalid: { line: number; value: string }[];
}

/** The longest value a report quotes back; a line that is not an address can be anything. */
const QUOTED_MAX = 80;

function refuse(message: string): never {
  throw new DomainError("IMPORT_REFUSED", message);
}

/**
 * Reads the `email` column (any case: Ghost writes `email`, Substack `Email`) of a CSV whose
 * first line names its columns. A Ghost member whose `subscribed_to_emails` is false is counted
 * and left out. csv-parse is loaded here, on the rare import, not with the server.
 */
export async function readSubscriberCsv(text: string): Promise<ReadSubscriberCsv> {
  if (Buffer.byteLength(text) > SUBSCRIBER_CSV_MAX_BYTES) {
    throw new DomainError("IMPORT_TOO_LARGE", SUBSCRIBER_CSV_TOO_LARGE_MESSAGE);
  }
  const { parse } = await import("csv-parse/sync");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with the line it ends on; the library's types do not say so.
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
  } catch (error) {
    refuse(`The file is not a CSV this blog can read: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  const columns = (header?.record ?? []).map((name) => name.trim().toLowerCase());
  const emailColumn = columns.indexOf("email");
  if (emailColumn < 0) refuse("The CSV has no email column: its first line must name its columns, one of them email.");
  const subscribedColumn = columns.indexOf("subscribed_to_emails");

  const read: ReadSubscriberCsv = { addresses: [], notSubscribed: 0, invalid: [] };
  for (const { record, info } of rows) {
    if (subscribedColumn >= 0 && record[subscribedColumn]?.trim().toLowerCase() === "false") {
      read.notSubscribed += 1;
      continue;
    }
    // Our export's guard against formulas (csvCell) comes off again, so the list round-trips.
    const value = (record[emailColumn] ?? "").replace(/^'(?=[=+\-@\t\r])/, "");
    const parsed = subscribeSchema.safeParse({ email: value });
    if (parsed.success) read.addresses.push({ line: info.lines, email: parsed.data.email });
    else read.invalid.push({ line: info.lines, value: value.trim().slice(0, QUOTED_MAX) });
  }
  return read;
}

/** The export's columns, in order. */
export const SUBSCRIBER_CSV_COLUMNS = ["email", "state", "created_at", "confirmed_at"] as const;

/**
 * One cell. A value a spreadsheet would take for a formula (= + - @, or a tab or carriage
 * return before one) is prefixed with ' so it stays text; a value with a comma, quote or line
 * break is quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One subscriber as a line of the export. */
export function subscriberCsvLine(subscriber: Subscriber): string {
  return `${[subscriber.email, subscriber.state, subscriber.createdAt, subscriber.confirmedAt ?? ""].map(csvCell).join(",")}\r\n`;
}

// Subscriber lists as CSV: reading ours, Ghost's members export and Substack's subscriber export,
// and writing ours. Why imported addresses are active only with consent: docs/decisions/0014.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { DomainError } from "#domain/errors.ts";
import { subscribeSchema, type Subscriber } from "#domain/newsletter.ts";
import {
  INVALID_LINES_SHOWN,
  SUBSCRIBER_CSV_MAX_BYTES,
  SUBSCRIBER_CSV_TOO_LARGE_MESSAGE,
} from "#domain/subscribers.ts";

/** Where a CSV comes from: its text, or the file an upload was streamed to. */
export type SubscriberCsvSource = string | { path: string };

/** What a CSV held for the list, besides the addresses handed on batch by batch. */
export interface SubscriberCsvCounts {
  /** Lines read past the header: addresses, members who wanted no email and invalid lines. */
  rows: number;
  addresses: number;
  notSubscribed: number;
  /** The first INVALID_LINES_SHOWN invalid lines; past them only `moreInvalid` counts. */
  invalid: { line: number; value: string }[];
  moreInvalid: number;
}

/** The longest value a report quotes back; a line that is not an address can be anything. */
const QUOTED_MAX = 80;

function refuse(message: string): never {
  throw new DomainError("IMPORT_REFUSED", message);
}

function tooLarge(): never {
  throw new DomainError("IMPORT_TOO_LARGE", SUBSCRIBER_CSV_TOO_LARGE_MESSAGE);
}

/** The source's bytes as a stream, refused once past SUBSCRIBER_CSV_MAX_BYTES. */
function openSource(source: SubscriberCsvSource): Readable {
  if (typeof source === "string") {
    if (Buffer.byteLength(source) > SUBSCRIBER_CSV_MAX_BYTES) tooLarge();
    return Readable.from([source]);
  }
  const file = createReadStream(source.path);
  let bytes = 0;
  file.on("data", (chunk) => {
    bytes += chunk.length;
    if (bytes > SUBSCRIBER_CSV_MAX_BYTES)
      file.destroy(new DomainError("IMPORT_TOO_LARGE", SUBSCRIBER_CSV_TOO_LARGE_MESSAGE));
  });
  return file;
}

/**
 * Reads the `email` column (any case: Ghost writes `email`, Substack `Email`) of a CSV whose
 * first line names its columns, as a stream: every `batchSize` rows, `onBatch` gets their valid
 * addresses and the counts so far, and is awaited before more is read, so memory holds one batch
 * whatever the file's size. A Ghost member whose `subscribed_to_emails` is false is counted and left out. csv-parse
 * is loaded here, on the rare import, not with the server.
 */
export async function readSubscriberCsv(
  source: SubscriberCsvSource,
  {
    batchSize,
    onBatch,
  }: { batchSize: number; onBatch: (emails: string[], counts: Readonly<SubscriberCsvCounts>) => Promise<void> },
): Promise<SubscriberCsvCounts> {
  const { parse } = await import("csv-parse");
  const counts: SubscriberCsvCounts = { rows: 0, addresses: 0, notSubscribed: 0, invalid: [], moreInvalid: 0 };
  // With `info`, each record comes with the line it ends on; the library's types do not say so.
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true });
  const input = openSource(source);
  // `pipe` passes data on, not a failure: a file that cannot be read, or one too large, ends the parse.
  input.on("error", (error) => parser.destroy(error));
  const records = input.pipe(parser) as AsyncIterable<{ record: string[]; info: { lines: number } }>;
  let emailColumn = -1;
  let subscribedColumn = -1;
  let header = true;
  let batch: string[] = [];
  let batchRows = 0;
  // What `onBatch` throws is the caller's, passed on as it is; only the reading's own failures say the file is unreadable.
  let batchFailed = false;
  const handOn = async () => {
    try {
      await onBatch(batch, counts);
    } catch (error) {
      batchFailed = true;
      throw error;
    }
  };
  try {
    for await (const { record, info } of records) {
      if (header) {
        header = false;
        const columns = record.map((name) => name.trim().toLowerCase());
        emailColumn = columns.indexOf("email");
        subscribedColumn = columns.indexOf("subscribed_to_emails");
        if (emailColumn < 0) {
          refuse("The CSV has no email column: its first line must name its columns, one of them email.");
        }
        continue;
      }
      if (batchRows >= batchSize) {
        await handOn();
        batch = [];
        batchRows = 0;
      }
      counts.rows += 1;
      batchRows += 1;
      if (subscribedColumn >= 0 && record[subscribedColumn]?.trim().toLowerCase() === "false") {
        counts.notSubscribed += 1;
        continue;
      }
      // Our export's guard against formulas (csvCell) comes off again, so the list round-trips.
      const value = (record[emailColumn] ?? "").replace(/^'(?=[=+\-@\t\r])/, "");
      const parsed = subscribeSchema.safeParse({ email: value });
      if (parsed.success) {
        counts.addresses += 1;
        batch.push(parsed.data.email);
      } else if (counts.invalid.length < INVALID_LINES_SHOWN) {
        counts.invalid.push({ line: info.lines, value: value.trim().slice(0, QUOTED_MAX) });
      } else {
        counts.moreInvalid += 1;
      }
    }
  } catch (error) {
    if (error instanceof DomainError || batchFailed) throw error;
    refuse(`The file is not a CSV this blog can read: ${(error as Error).message}`);
  }
  if (header) refuse("The CSV has no email column: its first line must name its columns, one of them email.");
  if (batchRows > 0) await onBatch(batch, counts);
  return counts;
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

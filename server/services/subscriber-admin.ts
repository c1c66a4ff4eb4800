// The owner's side of the newsletter list (the Subscribers screen): counts, pages, one address
// added or removed, and the list in and out as CSV. Readers' own subscribing is subscriptions.ts.
import { setImmediate } from "node:timers/promises";
import type { Kysely } from "kysely";
import { DomainError } from "#domain/errors.ts";
import type { Subscriber, SubscriberState } from "#domain/newsletter.ts";
import {
  type AddSubscriberInput,
  SUBSCRIBER_EXISTS_MESSAGE,
  SUBSCRIBERS_PAGE_SIZE,
  type SubscriberImportReport,
} from "#domain/subscribers.ts";
import type { Database } from "../db/schema.ts";
import { guardDatabase } from "../errors.ts";
import { inTransaction } from "../repositories/rows.ts";
import * as subscribers from "../repositories/subscribers.ts";
import {
  readSubscriberCsv,
  SUBSCRIBER_CSV_COLUMNS,
  type SubscriberCsvSource,
  subscriberCsvLine,
} from "./subscriber-csv.ts";

/** Rows per query while exporting: memory stays flat. */
const BATCH = 500;
/**
 * Rows per transaction while importing; between two, the import waits for the event loop. On
 * SQLite a transaction holds the one connection, so this is the longest a reader waits: about
 * 0.1 s once the list is 500,000 long.
 */
const IMPORT_BATCH = 500;

export function createSubscriberAdmin({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  return {
    /** The counts of every state, and one page of a state's subscribers, newest first. */
    async listPage({
      state,
      search,
      after,
    }: {
      state: SubscriberState;
      search?: string;
      after?: subscribers.SubscriberCursor;
    }): Promise<{ counts: Record<SubscriberState, number>; page: subscribers.SubscriberPage }> {
      return guardDatabase(async () => ({
        counts: await subscribers.countSubscribersByState(db),
        page: await subscribers.listSubscribers(db, { state, search, after, limit: SUBSCRIBERS_PAGE_SIZE }),
      }));
    },

    /**
     * An address its owner asked the writer to add: active at once, source 'admin'. An address on
     * the list already is left as it is (an unsubscription stands), and the writer is told its state.
     */
    async add({ email }: AddSubscriberInput): Promise<void> {
      const at = now().toISOString();
      const added = await guardDatabase(() =>
        subscribers.insertSubscribers(db, [
          { email, state: "active", source: "admin", created_at: at, confirmed_at: at },
        ]),
      );
      if (added > 0) return;
      const existing = await guardDatabase(() => subscribers.findSubscriberByEmail(db, email));
      throw new DomainError(
        "SUBSCRIBER_EXISTS",
        `${SUBSCRIBER_EXISTS_MESSAGE}${existing ? ` (${existing.state})` : ""}.`,
      );
    },

    /** Deletes the subscriber for good, for a data-protection request; removing one already gone is no error. */
    async remove(id: string): Promise<void> {
      await guardDatabase(() => subscribers.deleteSubscriber(db, id));
    },

    /**
     * A CSV's addresses join the list: `consent` (they agreed to this newsletter) makes them
     * active, otherwise pending, and nobody is emailed either way. Addresses on the list already
     * (in any case) keep their state. The file is read twice, as a stream: first only to check
     * it, so one it cannot read adds nothing; then IMPORT_BATCH rows a transaction, waiting for
     * the event loop between batches, so readers' requests are never held up by the import and
     * memory holds one batch. Should the database fail midway, the batches before stay, and the
     * same file imported again adds the rest.
     */
    async importCsv(source: SubscriberCsvSource, { consent }: { consent: boolean }): Promise<SubscriberImportReport> {
      await readSubscriberCsv(source, { batchSize: IMPORT_BATCH, onAddresses: () => setImmediate() });
      const at = now().toISOString();
      const state = consent ? "active" : "pending";
      let added = 0;
      const read = await readSubscriberCsv(source, {
        batchSize: IMPORT_BATCH,
        onAddresses: async (emails) => {
          added += await guardDatabase(() =>
            inTransaction(db, (trx) =>
              subscribers.insertSubscribers(
                trx,
                emails.map((email) => ({
                  email,
                  state,
                  source: "import",
                  created_at: at,
                  confirmed_at: consent ? at : null,
                })),
              ),
            ),
          );
          await setImmediate();
        },
      });
      return {
        state,
        added,
        alreadyListed: read.addresses - added,
        notSubscribed: read.notSubscribed,
        invalid: read.invalid,
        ...(read.moreInvalid > 0 ? { moreInvalid: read.moreInvalid } : {}),
      };
    },

    /** The whole list as CSV (email, state, created_at, confirmed_at), oldest first, a page at a time. */
    async *exportCsv(): AsyncGenerator<string> {
      yield `${SUBSCRIBER_CSV_COLUMNS.join(",")}\r\n`;
      let after: subscribers.SubscriberCursor | undefined;
      for (;;) {
        const page: Subscriber[] = await guardDatabase(() =>
          subscribers.listSubscribersForExport(db, { after, limit: BATCH }),
        );
        if (page.length > 0) yield page.map(subscriberCsvLine).join("");
        const last = page.at(-1);
        if (page.length < BATCH || !last) return;
        after = { createdAt: last.createdAt, id: last.id };
      }
    },
  };
}

export type SubscriberAdmin = ReturnType<typeof createSubscriberAdmin>;

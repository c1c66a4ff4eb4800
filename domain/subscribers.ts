// The owner's Subscribers screen: its forms, its CSV limit and the import's report.
import { defineForm, formText } from "./forms.ts";
import { subscribeSchema } from "./newsletter.ts";
import { z } from "./zod.ts";

/** A subscriber CSV is streamed to a file and read from it; 10 MB is some 300,000 addresses with their other columns. */
export const SUBSCRIBER_CSV_MAX_BYTES = 10 * 1024 * 1024;
export const SUBSCRIBER_CSV_TOO_LARGE_MESSAGE = `The file is too large: a subscriber CSV may be at most ${SUBSCRIBER_CSV_MAX_BYTES / 1024 / 1024} MB.`;
export const SUBSCRIBERS_PAGE_SIZE = 50;

export const ADD_CONSENT_MESSAGE = "Add an address only when its owner asked to subscribe, and tick the box to say so";
export const SUBSCRIBER_EXISTS_MESSAGE = "This address is on the list already";
export const SUBSCRIBER_NOT_FOUND_MESSAGE = "That subscriber is not on the list any more";
export const SUBSCRIBER_IMPORT_RUNNING_MESSAGE =
  "An import is running already: wait until it ends, then upload the next file.";

export const addSubscriberSchema = z.object({
  email: subscribeSchema.shape.email,
  consent: z.literal("yes", { error: ADD_CONSENT_MESSAGE }),
});

/** One address the writer adds: `consent` is the ticked box, so the type says the owner asked. */
export type AddSubscriberInput = z.infer<typeof addSubscriberSchema>;

/** One address the writer adds by hand: only with the owner's say-so, so it is active at once. */
export const addSubscriberForm = defineForm({
  fields: ["email", "consent"] as const,
  read: (formData: FormData) => ({ email: formText(formData, "email"), consent: formText(formData, "consent") }),
  schema: addSubscriberSchema,
});

export type AddSubscriberValues = ReturnType<typeof addSubscriberForm.read>;

export const removeSubscriberForm = defineForm({
  fields: ["id"] as const,
  read: (formData: FormData) => ({ id: formText(formData, "id") }),
  schema: z.object({ id: z.string().min(1, SUBSCRIBER_NOT_FOUND_MESSAGE) }),
});

/** The chosen file as both sides see it: the browser has the File, the action only its name. */
function chosenFile(value: FormDataEntryValue | null): { name: string; size: number } {
  return typeof value === "object" && value !== null ? { name: value.name, size: value.size } : { name: "", size: 0 };
}

/**
 * A CSV of addresses (ours, Ghost's members export, Substack's subscriber export). `consent`
 * ticked: they agreed to this newsletter, so they are active; unticked: pending, and nobody
 * is emailed (docs/decisions/0014, "The Subscribers screen").
 */
export const importSubscribersForm = defineForm({
  fields: ["file", "consent"] as const,
  read: (formData: FormData) => ({ file: chosenFile(formData.get("file")), consent: formText(formData, "consent") }),
  schema: z.object({
    file: z
      .object({ name: z.string(), size: z.number() })
      .refine((file) => file.name !== "", "Choose a CSV file to import")
      .refine((file) => file.size <= SUBSCRIBER_CSV_MAX_BYTES, SUBSCRIBER_CSV_TOO_LARGE_MESSAGE),
    consent: z.string().transform((value) => value === "yes"),
  }),
});

export type ImportSubscribersValues = ReturnType<typeof importSubscribersForm.read>;

/** What a subscriber CSV import did, line by line where a line was refused. */
export interface SubscriberImportReport {
  /** The state the new addresses were given. */
  state: "active" | "pending";
  added: number;
  /** On the list already (left as they were), or a second time in the file. */
  alreadyListed: number;
  /** Ghost members with `subscribed_to_emails` false: they never asked for the newsletter. */
  notSubscribed: number;
  /** The first INVALID_LINES_SHOWN invalid lines, each named. */
  invalid: { line: number; value: string }[];
  /** Invalid lines past those, only counted (absent when none). */
  moreInvalid?: number;
}

/** The invalid lines a report names one by one; past these it gives their number. */
export const INVALID_LINES_SHOWN = 100;

/** The report as lines of text, as a blog import's are read: a summary, then each invalid line. */
export function describeSubscriberImport(report: SubscriberImportReport): string[] {
  const { added, alreadyListed, notSubscribed, invalid, moreInvalid = 0 } = report;
  const summary = [
    `${added} ${added === 1 ? "address" : "addresses"} added as ${report.state}`,
    `${alreadyListed} already on the list`,
    ...(notSubscribed > 0 ? [`${notSubscribed} skipped: not subscribed to emails in the export`] : []),
    `${invalid.length + moreInvalid} not valid`,
  ].join("; ");
  const lines = invalid.map(
    ({ line, value }) =>
      `Skipped line ${line}: ${value ? `“${value}” is not a valid email address` : "no email address"}`,
  );
  if (moreInvalid > 0) {
    lines.push(`Warning: ${moreInvalid} more lines are not valid and not listed here`);
  }
  return [`${summary}.`, ...lines];
}

/**
 * Where the latest CSV import stands, read from the database so every app server shows it: under
 * way, cut short (its server stopped or went silent), failed, or finished with its report.
 */
export type SubscriberImportStatus =
  | { state: "running"; rowsRead: number; startedBy: string; startedAt: string }
  | { state: "stopped"; rowsRead: number }
  | { state: "failed"; rowsRead: number; reason: string }
  | { state: "finished"; report: SubscriberImportReport; startedBy: string; finishedAt: string };

const rowsOf = (count: number) => `${count} ${count === 1 ? "row" : "rows"}`;

/** The notice of an import under way or cut short; a finished one has its report instead. */
export function describeSubscriberImportProgress(status: SubscriberImportStatus): string | undefined {
  switch (status.state) {
    case "running":
      return `Importing subscribers… ${rowsOf(status.rowsRead)} read.`;
    case "stopped":
      return `The import stopped after ${rowsOf(status.rowsRead)}; upload the file again to add the rest.`;
    case "failed":
      return `The import failed after ${rowsOf(status.rowsRead)}. ${status.reason} Upload the file again to add the rest.`;
    case "finished":
      return undefined;
  }
}

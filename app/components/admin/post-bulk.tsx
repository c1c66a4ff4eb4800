import { Form, Link, useNavigation } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { type BulkPostChange, type BulkQuestion, bulkQuestion } from "#domain/post-bulk.ts";

/** The posts list's bulk form: the rows' checkboxes belong to it through their `form` attribute. */
export const BULK_FORM_ID = "bulk-posts";

const BUTTONS: { change: BulkPostChange; label: string }[] = [
  { change: "publish", label: "Publish selected" },
  { change: "unpublish", label: "Unpublish selected" },
  { change: "delete", label: "Delete selected" },
];

const barButtonClass =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800";

const deleteButtonClass =
  "inline-flex items-center justify-center rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60";

/** Above the list: a GET that asks the question first, so it works without JavaScript too. */
export function BulkBar({ keep }: { keep: Record<string, string> }) {
  return (
    <Form method="get" id={BULK_FORM_ID} preventScrollReset className="mt-6 flex flex-wrap items-center gap-2">
      {/* The list's search and filter, so the question and its answer show the same list. */}
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <span className="text-sm font-medium">With the selected posts:</span>
      {BUTTONS.map(({ change, label }) => (
        <button key={change} type="submit" name="change" value={change} className={barButtonClass}>
          {label}
        </button>
      ))}
    </Form>
  );
}

/** The one confirmation: what will change, the emails it sends, Yes (a POST) and Cancel (back to the list). */
export function BulkQuestionPanel({
  question,
  action,
  listHref,
}: {
  question: BulkQuestion;
  /** Where the Yes posts: the list with its search. */
  action: string;
  listHref: string;
}) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk";
  if (question.problem !== undefined) return <BulkProblem message={question.problem} />;
  const { title, confirm } = bulkQuestion(question.change, question.posts.length);
  const emailed = question.posts.filter((post) => post.emailsSubscribers);
  return (
    <section
      aria-labelledby="bulk-question"
      className="mt-4 space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <h2 id="bulk-question" className="text-base font-semibold">
        {title}
      </h2>
      <ul className="list-disc pl-5">
        {question.posts.map((post) => (
          <li key={post.id}>{post.title}</li>
        ))}
      </ul>
      {question.change === "delete" ? <p>Their comments are deleted with them. This cannot be undone.</p> : null}
      {emailed.length > 0 ? (
        <p className="font-medium">
          {emailed.length === 1 ? "This post is" : `These ${emailed.length} posts are`} emailed to your subscribers as{" "}
          {emailed.length === 1 ? "it is" : "they are"} published, as their editor&apos;s box asks:{" "}
          {emailed.map((post) => `“${post.title}”`).join(", ")}. To publish without emailing, untick “Email this post to
          subscribers” in the editor first.
        </p>
      ) : null}
      <Form method="post" action={action} preventScrollReset className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="bulk" />
        <input type="hidden" name="change" value={question.change} />
        {question.posts.map((post) => (
          <input key={post.id} type="hidden" name="id" value={post.id} />
        ))}
        <button
          type="submit"
          disabled={sending}
          className={question.change === "delete" ? deleteButtonClass : buttonStyles.primary}
        >
          {confirm}
        </button>
        <Link to={listHref} preventScrollReset className={barButtonClass}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

/** Why nothing was asked or changed: nothing ticked, or a form that could not be read. */
export function BulkProblem({ message }: { message: string }) {
  return (
    <p
      role="alert"
      className="mt-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {message}
    </p>
  );
}

/** What the change did, in words: a summary, then each post left as it was and why. */
export function BulkOutcomeNotice({ lines }: { lines: string[] }) {
  const [summary, ...left] = lines;
  return (
    <div
      role="status"
      className="mt-6 space-y-1 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <p className="font-medium">{summary}</p>
      {left.length > 0 ? (
        <ul className="list-disc pl-5">
          {left.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

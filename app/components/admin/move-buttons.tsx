import { Form } from "react-router";

/**
 * "Move up" and "Move down" for one row of an ordered list (categories, a navigation menu): a
 * small form that works without JavaScript, posting `to` as the row's new place. The first row
 * cannot go up nor the last one down; the row's name follows each label for screen readers.
 */
export function MoveButtons({
  action,
  fields,
  index,
  count,
  name,
  busy,
  buttonClassName,
}: {
  action: string;
  /** The hidden fields that say what is moved (intent included). */
  fields: Record<string, string>;
  index: number;
  count: number;
  name: string;
  busy: boolean;
  /** The buttons' look is the list's own: each screen keeps its small buttons alike. */
  buttonClassName: string;
}) {
  return (
    <Form method="post" action={action} className="flex gap-1">
      {Object.entries(fields).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <button type="submit" name="to" value={index - 1} disabled={busy || index === 0} className={buttonClassName}>
        Move up<span className="sr-only"> {name}</span>
      </button>
      <button
        type="submit"
        name="to"
        value={index + 1}
        disabled={busy || index === count - 1}
        className={buttonClassName}
      >
        Move down<span className="sr-only"> {name}</span>
      </button>
    </Form>
  );
}

import { useEffect, useState } from "react";
import type { ControlProps } from "~/components/ui/field";
import { inputStyles } from "~/components/ui/styles";

/** "YYYY-MM-DDTHH:mm" for a moment, as the browser's clock reads it. */
function toLocalInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Minutes to add to a local time to reach UTC, for that very moment (daylight saving included). */
function offsetFor(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? "" : String(date.getTimezoneOffset());
}

interface ScheduleInputProps {
  control: ControlProps;
  /** As stored, in UTC: the server cannot know the writer's zone. */
  defaultValue: string;
}

/**
 * "at a time": a date and time on the writer's clock. The server's HTML shows UTC (and says
 * so); once the page's JavaScript runs, the value moves to the browser's zone and a hidden
 * field tells the server the offset to get back to UTC.
 */
export function ScheduleInput({ control, defaultValue }: ScheduleInputProps) {
  const [value, setValue] = useState(defaultValue);
  const [zone, setZone] = useState<string>();

  useEffect(() => {
    // Runs once after hydration: the browser's zone is unknown to the server-rendered HTML.
    /* eslint-disable react-hooks/set-state-in-effect */
    setZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    if (defaultValue) setValue(toLocalInput(new Date(`${defaultValue}Z`)));
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [defaultValue]);

  return (
    <>
      <input
        {...control}
        name="publishAt"
        type="datetime-local"
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          control.onChange();
        }}
        className={`${inputStyles} max-w-xs`}
      />
      <input type="hidden" name="publishAtOffset" value={zone ? offsetFor(value) : ""} />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {zone ? `Your time zone: ${zone}.` : "Times are in UTC."} Leave empty to publish as soon as you save.
      </p>
    </>
  );
}

const longDates = new Map<string, Intl.DateTimeFormat>();

/**
 * docs/spec.md §9: dates are en-US long, e.g. "March 5, 2026", in the site's time zone (Settings;
 * UTC by default). The zone is explicit, so server and browser agree.
 */
export function formatDate(iso: string, timeZone = "UTC"): string {
  let format = longDates.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone });
    longDates.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** Cuts text to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** "1 comment", "2 comments": the spec's singular and plural labels. */
export function pluralise(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const dateTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** "Mar 5, 2026, 10:00 AM UTC": a moment, in UTC so server and browser agree. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const longDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** SPEC §9: dates are en-US long, e.g. "March 5, 2026" (in UTC, so server and browser agree). */
export function formatDate(iso: string): string {
  return longDate.format(new Date(iso));
}

/** Cuts text to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** "1 comment", "2 comments": the spec's singular and plural labels. */
export function pluralise(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

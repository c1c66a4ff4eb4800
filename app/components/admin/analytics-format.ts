import type { Granularity } from "#domain/analytics-ranges.ts";
import type { ReportListDimension } from "#domain/analytics-report.ts";

/** How the Analytics screen writes its figures and buckets; dates are already the site's days. */

const numbers = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return numbers.format(value);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "14:00", "Mar 5" or "Mar 2026": a bucket as the axis and the table name it. */
export function bucketLabel(bucket: string, granularity: Granularity): string {
  if (granularity === "hour") return `${bucket.slice(11, 13)}:00`;
  const month = MONTHS[Number(bucket.slice(5, 7)) - 1] ?? "";
  if (granularity === "month") return `${month} ${bucket.slice(0, 4)}`;
  return `${month} ${Number(bucket.slice(8, 10))}`;
}

/** "March 5, 2026": a day of a range, as the range's heading says it. */
export function dayLabel(day: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

const DEVICE_LABELS: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet" };
const SCREEN_LABELS: Record<string, string> = {
  small: "Small (under 640 px)",
  medium: "Medium (640–1023 px)",
  large: "Large (1024 px and wider)",
};

let regions: Intl.DisplayNames | undefined;

function countryName(code: string): string {
  try {
    regions ??= new Intl.DisplayNames(["en"], { type: "region" });
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a region code Intl knows: the stored value is the best name there is.
    return code;
  }
}

/** A list row's first cell: devices and screens in words, countries by name, an empty source as direct. */
export function listValueLabel(dimension: ReportListDimension, value: string): string {
  switch (dimension) {
    case "device":
      return DEVICE_LABELS[value] ?? value;
    case "screen":
      return SCREEN_LABELS[value] ?? value;
    case "country":
      return /^[A-Za-z]{2}$/.test(value) ? countryName(value) : value;
    case "source":
      return value || "Direct or unknown";
    default:
      return value || "(none)";
  }
}

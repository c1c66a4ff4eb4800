export const CATEGORIES = ["Development", "Technology", "Design", "Business", "Marketing", "Tutorials"] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

/** Route values are lower case; the stored name has its first letter capitalised (docs/spec.md §2). */
export function categoryFromRouteValue(routeValue: string): Category | undefined {
  const name = routeValue.charAt(0).toUpperCase() + routeValue.slice(1);
  return isCategory(name) ? name : undefined;
}

export function categoryPath(category: string): string {
  return `/category/${encodeURIComponent(category.toLowerCase())}`;
}

/** The admin sidebar; SPEC §2: every section but the editor shows the posts list for now. */
export const ADMIN_SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/posts", label: "Blog Posts", end: false },
  { to: "/admin/comments", label: "Comments", end: true },
  { to: "/admin/users", label: "Users", end: true },
  { to: "/admin/settings", label: "Settings", end: true },
] as const;

export function sectionLabel(pathname: string): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  return ADMIN_SECTIONS.find((section) => section.to === path)?.label ?? "Dashboard";
}

/** The admin sidebar; Subscribers, Fediverse, Users, Navigation, Settings, Webhooks and Tools are the owner's alone and hidden from editors. */
export const ADMIN_SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true, ownerOnly: false },
  { to: "/admin/posts", label: "Blog Posts", end: false, ownerOnly: false },
  { to: "/admin/pages", label: "Pages", end: false, ownerOnly: false },
  { to: "/admin/categories", label: "Categories", end: false, ownerOnly: false },
  { to: "/admin/comments", label: "Comments", end: true, ownerOnly: false },
  { to: "/admin/subscribers", label: "Subscribers", end: false, ownerOnly: true },
  { to: "/admin/fediverse", label: "Fediverse", end: false, ownerOnly: true },
  { to: "/admin/analytics", label: "Analytics", end: false, ownerOnly: false },
  { to: "/admin/media", label: "Media", end: true, ownerOnly: false },
  { to: "/admin/users", label: "Users", end: true, ownerOnly: true },
  { to: "/admin/navigation", label: "Navigation", end: true, ownerOnly: true },
  { to: "/admin/settings", label: "Settings", end: false, ownerOnly: true },
  { to: "/admin/settings/apps", label: "Apps", end: true, ownerOnly: false },
  { to: "/admin/settings/webhooks", label: "Webhooks", end: true, ownerOnly: true },
  { to: "/admin/tools", label: "Tools", end: true, ownerOnly: true },
  { to: "/admin/account", label: "Your account", end: true, ownerOnly: false },
] as const;

export function sectionLabel(pathname: string): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  return ADMIN_SECTIONS.find((section) => section.to === path)?.label ?? "Dashboard";
}

import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("blog", "routes/site/blog.tsx", { id: "blog" }),
    route("search", "routes/site/blog.tsx", { id: "search" }),
    route("blog/:id", "routes/site/post.tsx"),
    route("category/:category", "routes/site/category.tsx"),
    route("categories", "routes/site/categories.tsx"),
    route("about", "routes/site/about.tsx"),
    route("privacy", "routes/site/privacy.tsx"),
    route("terms", "routes/site/terms.tsx"),
    route("login", "routes/site/login.tsx"),
    route("setup", "routes/admin/setup.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),

  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/posts.tsx", { id: "admin-dashboard" }),
      route("posts", "routes/admin/posts.tsx", { id: "admin-posts" }),
      route("comments", "routes/admin/posts.tsx", { id: "admin-comments" }),
      route("users", "routes/admin/posts.tsx", { id: "admin-users" }),
      route("settings", "routes/admin/posts.tsx", { id: "admin-settings" }),
      route("posts/new", "routes/admin/post-new.tsx"),
      route("posts/edit/:id", "routes/admin/post-edit.tsx"),
      route("*", "routes/admin/unknown.tsx"),
    ]),
  ]),

  route("logout", "routes/resources/logout.ts"),
  route("healthz", "routes/resources/healthz.ts"),
] satisfies RouteConfig;

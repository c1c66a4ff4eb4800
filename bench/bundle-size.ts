// What a visitor's browser downloads for each public page: the gzipped JavaScript and CSS the
// page loads and modulepreloads, read from the client build (run `npm run build` first).
// Exits non-zero when a page is over budget (docs/decisions/0005).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const JS_BUDGET_BYTES = 90 * 1024;
export const CSS_BUDGET_BYTES = 25 * 1024;

/** The public pages by route id (app/routes.ts), with a path that shows each. */
export const PUBLIC_ROUTES: Record<string, string> = {
  "routes/site/home": "/",
  blog: "/blog",
  search: "/search?q=…",
  "routes/site/post": "/blog/:id",
  "routes/site/category": "/category/:category",
  "routes/site/categories": "/categories",
  "routes/site/about": "/about",
  "routes/site/privacy": "/privacy",
  "routes/site/terms": "/terms",
  "routes/site/login": "/login",
  "routes/site/not-found": "/* (404)",
};

interface ManifestEntry {
  module: string;
  imports?: string[];
  css?: string[];
}

interface BrowserManifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry & { parentId?: string }>;
}

export interface RouteSize {
  route: string;
  path: string;
  jsBytes: number;
  cssBytes: number;
  files: string[];
}

/**
 * React Router's browser manifest is the client build's own account of every route's module,
 * the chunks it imports and its CSS: exactly what the server renders as `<script>`,
 * `<link rel="modulepreload">` and `<link rel="stylesheet">` for a page.
 */
function readBrowserManifest(clientDir: string): BrowserManifest {
  const assets = path.join(clientDir, "assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`No React Router manifest in ${assets}: run \`npm run build\` first`);
  const source = readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as BrowserManifest;
}

export function measureRoutes(clientDir = "build/client"): RouteSize[] {
  const manifest = readBrowserManifest(clientDir);
  const gzipped = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = gzipped.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length;
      gzipped.set(file, size);
    }
    return size;
  };
  return Object.entries(PUBLIC_ROUTES).map(([routeId, pathname]) => {
    const chain: ManifestEntry[] = [manifest.entry];
    for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
      const route = manifest.routes[id];
      if (!route) throw new Error(`Route ${id} is not in the client manifest`);
      chain.push(route);
    }
    const js = new Set<string>();
    const css = new Set<string>();
    for (const entry of chain) {
      js.add(entry.module);
      for (const file of entry.imports ?? []) js.add(file);
      for (const file of entry.css ?? []) css.add(file);
    }
    const sum = (files: Set<string>) => [...files].reduce((total, file) => total + sizeOf(file), 0);
    return { route: routeId, path: pathname, jsBytes: sum(js), cssBytes: sum(css), files: [...js, ...css] };
  });
}

export function formatSizes(sizes: RouteSize[]): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const lines = [
    `${"page".padEnd(22)}${"JS (gzip)".padStart(12)}${"CSS (gzip)".padStart(12)}${"files".padStart(7)}`,
    ...sizes.map(
      (size) =>
        `${size.path.padEnd(22)}${kb(size.jsBytes).padStart(12)}${kb(size.cssBytes).padStart(12)}${String(size.files.length).padStart(7)}`,
    ),
    `budget: ${kb(JS_BUDGET_BYTES)} JS, ${kb(CSS_BUDGET_BYTES)} CSS per page`,
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const sizes = measureRoutes();
  console.log(formatSizes(sizes));
  const over = sizes.filter((size) => size.jsBytes > JS_BUDGET_BYTES || size.cssBytes > CSS_BUDGET_BYTES);
  if (over.length > 0) {
    console.error(`Over budget: ${over.map((size) => size.path).join(", ")}`);
    process.exitCode = 1;
  }
}

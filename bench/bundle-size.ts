// What a visitor's browser downloads for each public page: the gzipped JavaScript and CSS the
// page's HTML loads, preloads or carries inline, read off the pages the production server sends.
// `node bench/bundle-size.ts` (after `npm run build`) serves the demo blog to measure it, and
// exits non-zero when a page is over budget (docs/decisions/0005).
import { gzipSync } from "node:zlib";
import { startDemoServer } from "./demo-server.ts";

export const JS_BUDGET_BYTES = 90 * 1024;
export const CSS_BUDGET_BYTES = 25 * 1024;

export interface PageWeight {
  path: string;
  jsBytes: number;
  cssBytes: number;
  /** Script and stylesheet files the page loads, besides what it carries inline. */
  files: string[];
}

const gzippedSize = (text: string | Buffer) => gzipSync(text, { level: 9 }).length;

/** The public pages, with the address of one post of this blog. */
export function publicPages(postPath: string): string[] {
  return [
    "/",
    "/blog",
    "/search?q=design",
    postPath,
    "/category/design",
    "/categories",
    "/about",
    "/privacy",
    "/terms",
    "/login",
    "/no-such-page",
  ];
}

export async function measurePages(base: string, paths: string[]): Promise<PageWeight[]> {
  const fileSizes = new Map<string, Promise<number>>();
  const sizeOf = (file: string) => {
    let size = fileSizes.get(file);
    if (!size) {
      size = fetch(`${base}${file}`).then(async (response) => gzippedSize(Buffer.from(await response.arrayBuffer())));
      fileSizes.set(file, size);
    }
    return size;
  };
  const weights: PageWeight[] = [];
  for (const pagePath of paths) {
    const html = await (await fetch(`${base}${pagePath}`)).text();
    // JSON-LD is data, not script.
    const inlineScripts = [...html.matchAll(/<script\b(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1]!,
    );
    const inlineStyles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    // Files named in tags, and the modules React Router's inline bootstrap imports.
    const scriptFiles = new Set([
      ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!),
      ...[...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]!),
      ...inlineScripts.flatMap((source) =>
        [...source.matchAll(/"(\/assets\/[\w.-]+\.js)"/g)].map((match) => match[1]!),
      ),
    ]);
    const styleFiles = new Set(
      [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((match) => match[1]!),
    );
    const sum = async (files: Set<string>) => (await Promise.all([...files].map(sizeOf))).reduce((a, b) => a + b, 0);
    const inlineJs = inlineScripts.some(Boolean) ? gzippedSize(inlineScripts.join("\n")) : 0;
    const inlineCss = inlineStyles.some(Boolean) ? gzippedSize(inlineStyles.join("\n")) : 0;
    weights.push({
      path: pagePath,
      jsBytes: inlineJs + (await sum(scriptFiles)),
      cssBytes: inlineCss + (await sum(styleFiles)),
      files: [...scriptFiles, ...styleFiles],
    });
  }
  return weights;
}

export function formatWeights(weights: PageWeight[]): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const label = (pagePath: string) => (pagePath.length > 42 ? `${pagePath.slice(0, 41)}…` : pagePath);
  const lines = [
    `${"page".padEnd(44)}${"JS (gzip)".padStart(12)}${"CSS (gzip)".padStart(12)}${"files".padStart(7)}`,
    ...weights.map(
      (weight) =>
        `${label(weight.path).padEnd(44)}${kb(weight.jsBytes).padStart(12)}${kb(weight.cssBytes).padStart(12)}${String(weight.files.length).padStart(7)}`,
    ),
    `budget: ${kb(JS_BUDGET_BYTES)} JS, ${kb(CSS_BUDGET_BYTES)} CSS per public page; inline script and style count in full`,
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const server = await startDemoServer(Number(process.env.BENCH_PORT ?? 3294));
  try {
    const weights = await measurePages(server.base, publicPages(server.postPath));
    console.log(formatWeights(weights));
    // Sign-in hydrates; it is not a reader's page and is shown for comparison.
    const over = weights.filter(
      (weight) => weight.path !== "/login" && (weight.jsBytes > JS_BUDGET_BYTES || weight.cssBytes > CSS_BUDGET_BYTES),
    );
    if (over.length > 0) {
      console.error(`Over budget: ${over.map((weight) => weight.path).join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

// Finding a page's Webmention endpoint, as https://www.w3.org/TR/webmention/#sender-discovers-receiver-webmention-endpoint says:
// the HTTP Link header first, then the first <link> or <a> in the document whose rel names
// webmention; relative addresses resolved against the page's address after redirects; an empty
// href is the page itself. Markup inside HTML comments is no element, so it never counts.
import { Parser } from "htmlparser2";
import type { FetchedPage } from "./fetch-page.ts";

function relNamesWebmention(rel: string): boolean {
  return rel
    .toLowerCase()
    .split(/\s+/)
    .some((token) => token === "webmention");
}

/** The first target of a `Link` header value whose rel names webmention (RFC 8288: `<url>; rel="a b"`, several by commas). */
export function endpointFromLinkHeader(header: string): string | undefined {
  const linkPattern = /<([^>]*)>\s*((?:;\s*[^;,]*)*)/g;
  for (const match of header.matchAll(linkPattern)) {
    const params = match[2] ?? "";
    for (const param of params.matchAll(/;\s*([a-zA-Z*]+)\s*=\s*(?:"([^"]*)"|([^\s;,]*))/g)) {
      if (param[1]?.toLowerCase() === "rel" && relNamesWebmention(param[2] ?? param[3] ?? "")) return match[1];
    }
  }
  return undefined;
}

/** The href of the first <link> or <a> whose rel names webmention and that has an href. */
export function endpointFromHtml(html: string): string | undefined {
  let found: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (found !== undefined || (name !== "link" && name !== "a")) return;
        if (attributes.href !== undefined && relNamesWebmention(attributes.rel ?? "")) found = attributes.href;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** The endpoint of a fetched page, absolute; undefined when it names none (or an address that is not http(s)). */
export function discoverEndpoint(page: FetchedPage): string | undefined {
  const raw = endpointFromLinkHeader(page.headers.get("link") ?? "") ?? endpointFromHtml(page.body);
  if (raw === undefined || !URL.canParse(raw, page.url)) return undefined;
  const endpoint = new URL(raw, page.url);
  return endpoint.protocol === "http:" || endpoint.protocol === "https:" ? endpoint.href : undefined;
}

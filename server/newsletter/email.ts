import { randomUUID } from "node:crypto";
import sanitizeHtml from "sanitize-html";
import { type MediaImage, MEDIA_PATH_PATTERN, mediaUrl } from "#domain/media.ts";
import type { Post } from "#domain/post.ts";
import { absoluteUrl, postPath, resolveUrl } from "#domain/site-urls.ts";
import { rewriteHtmlUrls } from "../render/index.ts";
import { UNSUBSCRIBE_PLACEHOLDER } from "./outbox.ts";
import { escapeHtml } from "#domain/escape.ts";
import { htmlToText } from "./email-text.ts";

/** The blog as an email names it: its title from Settings and SITE_URL. */
export interface EmailSite {
  title: string;
  url: string;
}

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

export type EmailPost = Pick<Post, "title" | "slug" | "contentHtml" | "excerpt" | "author" | "coverImage">;

/** This blog's uploads that a post shows, by hash (the media table): their variants and sizes. */
export type EmailImages = ReadonlyMap<string, MediaImage>;

/** The card is 600 px wide; the body inside its padding is 552. */
const BODY_WIDTH = 552;
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MONO = "Menlo,Consolas,'Courier New',monospace";

/**
 * Email clients keep inline styles and drop or ignore much else, so every element carries its
 * own. Colours are set on the card and inherited; the head's one media query repaints them in
 * dark mode where a client honours it (Apple Mail, Outlook on the Mac), and clients that
 * repaint on their own (Gmail, Outlook.com) start from plain light colours.
 */
const BODY_STYLES: Record<string, string> = {
  p: "margin:0 0 16px;",
  h1: "margin:32px 0 12px;font-size:24px;line-height:1.3;",
  h2: "margin:28px 0 12px;font-size:22px;line-height:1.3;",
  h3: "margin:24px 0 8px;font-size:18px;line-height:1.3;",
  h4: "margin:20px 0 8px;font-size:16px;line-height:1.3;",
  h5: "margin:20px 0 8px;font-size:16px;line-height:1.3;",
  h6: "margin:20px 0 8px;font-size:16px;line-height:1.3;",
  a: "color:#2563eb;text-decoration:underline;",
  img: "max-width:100%;height:auto;border:0;",
  // Wrapped, not scrolled: a long line stays readable on a phone and in Outlook.
  pre: `margin:0 0 16px;padding:12px 16px;background-color:#f3f4f6;color:#111827;border-radius:6px;font-family:${MONO};font-size:14px;line-height:1.5;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere;`,
  code: `font-family:${MONO};font-size:14px;background-color:#f3f4f6;color:#111827;`,
  kbd: `font-family:${MONO};font-size:14px;`,
  blockquote: "margin:0 0 16px;padding:0 0 0 16px;border-left:4px solid #d1d5db;color:#4b5563;",
  ul: "margin:0 0 16px;padding-left:24px;",
  ol: "margin:0 0 16px;padding-left:24px;",
  li: "margin:0 0 4px;",
  hr: "border:0;border-top:1px solid #e5e7eb;margin:24px 0;",
  figure: "margin:0 0 16px;",
  figcaption: "margin:8px 0 0;font-size:14px;color:#6b7280;",
  table: "border-collapse:collapse;margin:0 0 16px;",
  th: "border:1px solid #d1d5db;padding:6px 10px;text-align:left;",
  td: "border:1px solid #d1d5db;padding:6px 10px;",
};

/** Attributes that mean nothing in an email: responsive sources, lazy loading, the page's own classes and code colours. */
const PAGE_ONLY_ATTRIBUTES = new Set(["srcset", "sizes", "loading", "decoding", "class", "style", "tabindex"]);

/** What the stored body's tags may carry into the email (server/kernel/html.ts allows no more), and the styles added here. */
const BODY_ATTRIBUTES = [
  ...["href", "title", "rel", "target", "id", "src", "alt", "width", "height", "style"],
  ...["colspan", "rowspan", "scope", "start", "datetime", "aria-label"],
];

/** A table cell keeps the column alignment GFM wrote; nothing else of a stored style survives. */
const CELL_ALIGNMENT = /text-align:\s*(left|right|center)/;

function withStyles(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const kept = Object.fromEntries(Object.entries(attribs).filter(([name]) => !PAGE_ONLY_ATTRIBUTES.has(name)));
  const alignment = CELL_ALIGNMENT.exec(attribs.style ?? "")?.[0];
  const style = (BODY_STYLES[tagName] ?? "") + (alignment ? `${alignment};` : "");
  return style ? { ...kept, style } : kept;
}

/** Sharp screens draw two pixels per CSS pixel: an upload's file may be up to twice the body. */
const IMAGE_FILE_WIDTH = 2 * BODY_WIDTH;

/**
 * One of this blog's uploads as the email shows it: the widest variant the media store made up to
 * IMAGE_FILE_WIDTH (the editor inserts the largest, up to 2,400 px), drawn at most the body's width,
 * with a height from its stored size. Undefined for any other address.
 */
function uploadedImage(src: string, images: EmailImages): { src: string; width: number; height: number } | undefined {
  const hash = MEDIA_PATH_PATTERN.exec(src)?.[1];
  const image = hash ? images.get(hash) : undefined;
  if (!image) return undefined;
  const file = image.widths.filter((width) => width <= IMAGE_FILE_WIDTH).at(-1) ?? image.widths[0]!;
  const width = Math.min(BODY_WIDTH, image.width);
  return {
    src: mediaUrl(image.hash, file, image.format),
    width,
    height: Math.round((image.height * width) / image.width),
  };
}

/**
 * An image no wider than the body, with its size in attributes: Outlook sizes it by them alone.
 * An upload gets its variant and size from the media table, since the editor stores neither.
 */
function sizedImage(attribs: sanitizeHtml.Attributes, images: EmailImages): sanitizeHtml.Attributes {
  const upload = uploadedImage(attribs.src ?? "", images);
  if (upload) return { ...attribs, src: upload.src, width: String(upload.width), height: String(upload.height) };
  const width = Number(attribs.width);
  const height = Number(attribs.height);
  if (!(width > BODY_WIDTH)) return attribs;
  const scaled: sanitizeHtml.Attributes = { ...attribs, width: String(BODY_WIDTH) };
  if (height > 0) scaled.height = String(Math.round((height * BODY_WIDTH) / width));
  return scaled;
}

/**
 * The stored body, sanitised at save time, as an email shows it: every tag styled inline,
 * `<picture>` sources left out (the `<img>` inside stays, the format every client reads), a task's
 * box as a character, and no table of contents (its links would leave the email for the page).
 * Passing it through sanitize-html again also re-escapes everything it writes.
 */
function emailBody(contentHtml: string, images: EmailImages): string {
  return sanitizeHtml(contentHtml, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "picture", "del", "ins"],
    allowedAttributes: { "*": BODY_ATTRIBUTES },
    exclusiveFilter: (frame) => frame.tag === "nav",
    transformTags: {
      "*": (tagName, attribs) => ({ tagName, attribs: withStyles(tagName, attribs) }),
      img: (tagName, attribs) => ({ tagName, attribs: sizedImage(withStyles(tagName, attribs), images) }),
      input: (_tagName, attribs) => ({
        tagName: "span",
        attribs: {},
        text: attribs.checked === undefined ? "☐ " : "☑ ",
      }),
    },
  });
}

/** The blog's address as a reader reads it: host and path, no scheme or trailing slash. */
function displayAddress(siteUrl: string): string {
  const url = new URL(siteUrl);
  return `${url.host}${url.pathname}`.replace(/\/$/, "");
}

interface Shell {
  title: string;
  /** The line a mail list shows after the subject. */
  preheader: string;
  site: EmailSite;
  /** Above the card: "View in browser" for a post. */
  topLink?: { href: string; label: string };
  /** The card's HTML, made from escaped text and the sanitised body only. */
  content: string;
  /** HTML of the footer's last line. */
  footerNote: string;
}

/**
 * One layout for every email: a 600 px table (Outlook lays out tables only; other clients narrow
 * it on a phone through `max-width`), inline styles, and a footer with the blog's name and address.
 * A fixed table layout and a card whose long words break keep one long address from widening the
 * whole email past a phone's screen: an automatic table grows to its longest unbreakable word.
 */
function emailDocument({ title, preheader, site, topLink, content, footerNote }: Shell): string {
  const home = escapeHtml(absoluteUrl(site.url, "/"));
  const top = topLink
    ? `<tr><td class="muted" align="right" style="padding:0 0 12px;font-family:${FONT};font-size:13px;color:#6b7280;"><a href="${escapeHtml(topLink.href)}" style="color:#6b7280;text-decoration:underline;">${escapeHtml(topLink.label)}</a></td></tr>`
    : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(title)}</title>
<style>
:root { color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  .page { background-color: #111827 !important; }
  .card { background-color: #1f2937 !important; color: #e5e7eb !important; }
  .card a { color: #93c5fd !important; }
  .card pre, .card code { background-color: #111827 !important; color: #e5e7eb !important; }
  .card blockquote, .muted, .muted a { color: #9ca3af !important; }
}
</style>
</head>
<body class="page" style="margin:0;padding:0;background-color:#f4f4f5;">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(preheader)}</div>
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;table-layout:fixed;">
${top}
<tr><td class="card" style="padding:32px 24px 16px;background-color:#ffffff;color:#1f2937;font-family:${FONT};font-size:16px;line-height:1.6;border-radius:8px;word-break:break-word;overflow-wrap:anywhere;">
${content}
</td></tr>
<tr><td class="muted" align="center" style="padding:24px 12px;font-family:${FONT};font-size:13px;line-height:1.5;color:#6b7280;word-break:break-word;overflow-wrap:anywhere;">
<a href="${home}" style="color:#6b7280;text-decoration:underline;">${escapeHtml(site.title)}</a> · ${escapeHtml(displayAddress(site.url))}<br>
${footerNote}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/**
 * Only the blog's own footer carries the reader's unsubscribe link. The outbox fills every
 * `{{unsubscribe_url}}` of the stored email, so one the writer typed in the post (an image's
 * address, the cover, a link, the text) would hand each reader's token to whatever host it
 * names. The footer is written with a slot no post can contain (a fresh UUID), every
 * placeholder the post brought is made inert, and only then does the slot become the
 * placeholder: in HTML its braces as character references (the same address once a client
 * decodes it), in the text part with an invisible word joiner.
 */
function keepUnsubscribeLinkInFooter(composed: string, footerSlot: string, inert: string): string {
  return composed.replaceAll(UNSUBSCRIBE_PLACEHOLDER, inert).replaceAll(footerSlot, UNSUBSCRIBE_PLACEHOLDER);
}

const INERT_PLACEHOLDER_HTML = UNSUBSCRIBE_PLACEHOLDER.replaceAll("{", "&#123;").replaceAll("}", "&#125;");
const INERT_PLACEHOLDER_TEXT = UNSUBSCRIBE_PLACEHOLDER.replaceAll("{{", "{\u2060{");

/**
 * A post as the email that carries it: the title as subject, the stored body with every address
 * absolute, a link to the post, and an unsubscribe link per recipient. Links are the post's own:
 * no tracking pixel, no rewritten links.
 */
export function composePostEmail(post: EmailPost, site: EmailSite, images: EmailImages = new Map()): ComposedEmail {
  const footerSlot = `unsubscribe-${randomUUID()}`;
  const postUrl = absoluteUrl(site.url, postPath(post.slug));
  const resolve = (reference: string) => resolveUrl(site.url, reference, postUrl);
  // Uploads are recognised by their own path, so addresses are made absolute after the body is made.
  const body = rewriteHtmlUrls(emailBody(post.contentHtml, images), resolve);
  const coverUpload = uploadedImage(post.coverImage, images);
  const cover = post.coverImage ? resolve(coverUpload?.src ?? post.coverImage) : undefined;
  const coverWidth = coverUpload?.width ?? BODY_WIDTH;
  const coverHeight = coverUpload ? ` height="${coverUpload.height}"` : "";
  const byline = post.author
    ? `<p class="muted" style="margin:0 0 24px;font-size:14px;color:#6b7280;">${escapeHtml(post.author)}</p>`
    : "";
  const content = [
    `<p class="muted" style="margin:0 0 8px;font-size:14px;color:#6b7280;">${escapeHtml(site.title)}</p>`,
    `<h1 style="margin:0 0 8px;font-size:28px;line-height:1.25;">${escapeHtml(post.title)}</h1>`,
    byline,
    cover
      ? `<img src="${escapeHtml(cover)}" width="${coverWidth}"${coverHeight} alt="" style="display:block;width:100%;max-width:${coverWidth}px;height:auto;border:0;margin:0 0 24px;border-radius:6px;">`
      : "",
    body,
  ].join("\n");
  const html = emailDocument({
    title: post.title,
    preheader: post.excerpt,
    site,
    topLink: { href: postUrl, label: "View in browser" },
    content,
    footerNote: `You get new posts from ${escapeHtml(site.title)} by email. <a href="${footerSlot}" style="color:#6b7280;text-decoration:underline;">Unsubscribe</a>`,
  });
  const text = [
    site.title,
    "",
    post.title,
    ...(post.author ? [post.author] : []),
    "",
    `View in browser: ${postUrl}`,
    "",
    htmlToText(body),
    "",
    "--",
    `${site.title} · ${absoluteUrl(site.url, "/")}`,
    `Unsubscribe: ${footerSlot}`,
    "",
  ].join("\n");
  return {
    subject: post.title,
    html: keepUnsubscribeLinkInFooter(html, footerSlot, INERT_PLACEHOLDER_HTML),
    text: keepUnsubscribeLinkInFooter(text, footerSlot, INERT_PLACEHOLDER_TEXT),
  };
}

/** The double opt-in email: one link that confirms, and what happens if it is not followed. */
export function composeConfirmationEmail(site: EmailSite, confirmUrl: string): ComposedEmail {
  const subject = `Confirm your subscription to ${site.title}`;
  const ask = `Please confirm that you want new posts from ${site.title} by email.`;
  const ignore =
    "The link works for 7 days. If you did not ask to subscribe, ignore this email: nothing more will be sent.";
  const link = escapeHtml(confirmUrl);
  const content = [
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">${escapeHtml(subject)}</h1>`,
    `<p style="margin:0 0 24px;">${escapeHtml(ask)}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px;"><tr><td style="border-radius:6px;background-color:#2563eb;"><a href="${link}" style="display:inline-block;padding:12px 20px;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px;">Confirm subscription</a></td></tr></table>`,
    `<p class="muted" style="margin:0 0 16px;font-size:14px;color:#6b7280;">Or open this address: <a href="${link}" style="word-break:break-all;">${link}</a></p>`,
    `<p class="muted" style="margin:0 0 16px;font-size:14px;color:#6b7280;">${escapeHtml(ignore)}</p>`,
  ].join("\n");
  const html = emailDocument({
    title: subject,
    preheader: ask,
    site,
    content,
    footerNote: "You get this email because this address was entered in the blog's subscribe form.",
  });
  const text = [
    subject,
    "",
    ask,
    "",
    `Confirm: ${confirmUrl}`,
    "",
    ignore,
    "",
    "--",
    `${site.title} · ${absoluteUrl(site.url, "/")}`,
    "",
  ].join("\n");
  return { subject, html, text };
}

/** A notice about comments (server/comment-emails): every part plain text, escaped here. */
export interface NoticeEmail {
  subject: string;
  /** The opening sentence. */
  lead: string;
  /** Comments quoted in the card: who wrote it, on which post, and its text. */
  quotes: { heading: string; text: string }[];
  /** The one button: where to answer or moderate. */
  action: { href: string; label: string };
  /** Why the email came; with `unsubscribeLabel`, followed by the recipient's own unsubscribe link. */
  footerNote: string;
  unsubscribeLabel?: string;
}

/**
 * The house's layout for a comment notice. Comments are plain text, so the card holds nothing
 * but escaped text; a `{{unsubscribe_url}}` a commenter typed is made inert, and only the footer's
 * own link becomes the recipient's unsubscribe address (keepUnsubscribeLinkInFooter).
 */
export function composeNoticeEmail(site: EmailSite, notice: NoticeEmail): ComposedEmail {
  const footerSlot = `unsubscribe-${randomUUID()}`;
  const paragraphs = (text: string) =>
    text
      .split(/\n{2,}/)
      .map((part) => `<p style="margin:0 0 12px;">${escapeHtml(part).replaceAll("\n", "<br>")}</p>`)
      .join("");
  const link = escapeHtml(notice.action.href);
  const content = [
    `<p class="muted" style="margin:0 0 8px;font-size:14px;color:#6b7280;">${escapeHtml(site.title)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">${escapeHtml(notice.subject)}</h1>`,
    `<p style="margin:0 0 24px;">${escapeHtml(notice.lead)}</p>`,
    ...notice.quotes.map(
      (quote) =>
        `<p style="margin:0 0 8px;font-weight:600;">${escapeHtml(quote.heading)}</p><blockquote style="margin:0 0 24px;padding:0 0 0 12px;border-left:3px solid #d1d5db;color:#374151;">${paragraphs(quote.text)}</blockquote>`,
    ),
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px;"><tr><td style="border-radius:6px;background-color:#2563eb;"><a href="${link}" style="display:inline-block;padding:12px 20px;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(notice.action.label)}</a></td></tr></table>`,
  ].join("\n");
  const unsubscribeHtml = notice.unsubscribeLabel
    ? ` <a href="${footerSlot}" style="color:#6b7280;text-decoration:underline;">${escapeHtml(notice.unsubscribeLabel)}</a>`
    : "";
  const html = emailDocument({
    title: notice.subject,
    preheader: notice.lead,
    site,
    content,
    footerNote: `${escapeHtml(notice.footerNote)}${unsubscribeHtml}`,
  });
  const text = [
    site.title,
    "",
    notice.subject,
    "",
    notice.lead,
    "",
    ...notice.quotes.flatMap((quote) => [quote.heading, "", quote.text, ""]),
    `${notice.action.label}: ${notice.action.href}`,
    "",
    "--",
    `${site.title} · ${absoluteUrl(site.url, "/")}`,
    notice.footerNote,
    ...(notice.unsubscribeLabel ? [`${notice.unsubscribeLabel}: ${footerSlot}`] : []),
    "",
  ].join("\n");
  return {
    subject: notice.subject,
    html: keepUnsubscribeLinkInFooter(html, footerSlot, INERT_PLACEHOLDER_HTML),
    text: keepUnsubscribeLinkInFooter(text, footerSlot, INERT_PLACEHOLDER_TEXT),
  };
}

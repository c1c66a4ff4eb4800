// What the fuzz test (server-fuzz.spec.ts) sends, and how: a seeded generator of hostile HTTP
// requests, and a raw-socket client that can send what no well-behaved client library would.
import { Socket } from "node:net";

/** mulberry32: tiny, fast and good enough to make every run replayable from one 32-bit seed. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** An integer in [0, below). */
    below: (below: number) => Math.floor(next() * below),
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

export type Random = ReturnType<typeof createRandom>;

const COMBINING_MARKS = Array.from({ length: 40 }, (_, index) => String.fromCharCode(0x300 + index)).join("");

/** Text that has broken web applications before: control bytes, odd Unicode, injection shapes, huge values. */
const HOSTILE_TEXT: readonly string[] = [
  "",
  " ",
  "design",
  "Design",
  "a".repeat(10_000),
  "é".repeat(3_000),
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u0008\u000b\u000c\u001f\u007f",
  "\r\n\r\nSet-Cookie: injected=1",
  "\t\t",
  "\u001b[31mred",
  "\u0085\u2028\u2029",
  "\ufeff\u200b\u200c\u200d\u2060",
  "\u202eevil.exe\u202c",
  "שלום עולם",
  "مرحبا بالعالم",
  `Z${COMBINING_MARKS}a${COMBINING_MARKS}l${COMBINING_MARKS}g${COMBINING_MARKS}o`,
  "e\u0301".repeat(2_000),
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "😀".repeat(5_000),
  "\ud800",
  "\udfff",
  "a\ud83db",
  "\uffff\ufffe\u{10ffff}",
  "' OR 1=1 --",
  '"; DROP TABLE posts; --',
  "<script>alert(1)</script>",
  "{{7*7}}${7*7}",
  "%",
  "%%",
  "%zz",
  "../../etc/passwd",
  "..",
  "/",
  "\\",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "NaN",
  "-1",
  "0",
  "1e309",
  "99999999999999999999999999",
  "0x10",
  "[]",
  "{}",
  "*",
  "?#&=+",
  "%s%s%s%n",
];

/** Percent sequences that do not decode to UTF-8 text (or do not decode at all). */
const BROKEN_PERCENT: readonly string[] = [
  "%",
  "%2",
  "%zz",
  "%G1",
  "%E0%A4%A",
  "%C0%80",
  "%ED%A0%80",
  "%FF%FE",
  "%F4%90%80%80",
  "%%30%30",
  "%00",
];

export function hostileText(random: Random): string {
  const roll = random.below(10);
  if (roll < 6) return random.pick(HOSTILE_TEXT);
  if (roll < 8) return random.pick(HOSTILE_TEXT) + random.pick(HOSTILE_TEXT) + random.pick(HOSTILE_TEXT);
  // Any UTF-16 code units at all, lone surrogates included.
  return String.fromCharCode(...Array.from({ length: 1 + random.below(300) }, () => random.below(0x10000)));
}

/**
 * UTF-8, except that a lone surrogate is encoded as if it were a character (WTF-8): the bytes
 * a careless client sends, which are not valid UTF-8.
 */
export function looseUtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    const low = text.charCodeAt(index + 1);
    if (code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      index += 1;
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Buffer.from(bytes);
}

/** Text percent-encoded as a careless client would: `encodeURIComponent` without its URIError on a lone surrogate. */
export function looseUriComponent(text: string): string {
  return percentEncode(looseUtf8(text));
}

function percentEncode(bytes: Buffer): string {
  let encoded = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

/** A URL component: hostile text percent-encoded, or percent-encoding that is itself broken. */
export function urlComponent(random: Random): string {
  const encoded = looseUriComponent(hostileText(random));
  return random.chance(0.2) ? encoded + random.pick(BROKEN_PERCENT) : encoded;
}

export interface RawRequest {
  method: string;
  /** The request-target exactly as sent (latin1 bytes, so raw bytes above 0x7f are possible). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** A Content-Length larger than the body: the client sends what it has, then closes its side. */
  truncatedTo?: number;
}

export interface FuzzRequest extends RawRequest {
  /** Which generator made it, so failures group by kind. */
  kind: string;
}

export type FormFields = [string, string][];

export function urlencodedBody(fields: FormFields, random: Random): Buffer {
  const pairs = fields.map(([name, value]) => {
    const encoded = looseUriComponent(value);
    return `${name}=${random.chance(0.1) ? encoded + random.pick(BROKEN_PERCENT) : encoded}`;
  });
  return Buffer.from(pairs.join("&"), "latin1");
}

export function multipartBody(fields: FormFields, boundary: string, random: Random): Buffer {
  const parts = fields.map(([name, value]) => {
    const disposition = random.chance(0.1)
      ? `form-data; name="${name}"; filename="${name}.txt"\r\nContent-Type: application/octet-stream`
      : `form-data; name="${name}"`;
    return Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
      looseUtf8(value),
      Buffer.from("\r\n"),
    ]);
  });
  return Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
}

function serialize(port: number, request: RawRequest): Buffer {
  const headers = [...request.headers];
  if (!headers.some(([name]) => name.toLowerCase() === "host")) headers.unshift(["Host", `127.0.0.1:${port}`]);
  const length = request.truncatedTo ?? request.body?.length;
  if (length !== undefined) headers.push(["Content-Length", String(length)]);
  // One request per connection: the response ends when the server closes it.
  headers.push(["Connection", "close"]);
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), request.body ?? Buffer.alloc(0)]);
}

/** The final response's status line and headers, after any 100 Continue. */
function parseResponse(received: Buffer): RawResponse | undefined {
  let rest = received.toString("latin1");
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) return undefined;
    const [statusLine = "", ...headerLines] = rest.slice(0, headEnd).split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!status) return undefined;
    if (status >= 200) {
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      return { status, headers };
    }
    rest = rest.slice(headEnd + 4);
  }
}

/**
 * Sends one request over its own connection and waits for the server to close it. Rejects when
 * no complete response head arrives before `timeoutMs`, which the fuzz test counts as a hang.
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = new Socket({ signal: AbortSignal.timeout(timeoutMs) });
    const settle = (error?: Error) => {
      const response = parseResponse(Buffer.concat(chunks));
      if (response) resolve(response);
      else reject(error ?? new Error("the connection closed without a response"));
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => {
      // A response that has not finished by then is a hang, even if its status line arrived.
      if (error.name === "AbortError") reject(new Error(`no complete answer within ${timeoutMs / 1000} s`));
      // Otherwise the server may have answered early (413, 431) and closed while the request was being written.
      else settle(error);
    });
    socket.on("close", () => settle());
    socket.connect(port, "127.0.0.1", () => {
      const bytes = serialize(port, request);
      if (request.truncatedTo === undefined) socket.write(bytes);
      else socket.end(bytes);
    });
  });
}

/** One line that says what was sent, short enough to read even when the body was 10,000 characters. */
export function describeRequest(request: RawRequest): string {
  const shorten = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text);
  const parts = [`${request.method} ${shorten(request.target)}`];
  for (const [name, value] of request.headers) parts.push(`${name}: ${shorten(value)}`);
  if (request.body) parts.push(`body ${JSON.stringify(shorten(request.body.toString("utf8")))}`);
  if (request.truncatedTo !== undefined) parts.push(`(Content-Length ${request.truncatedTo}, then closed)`);
  return parts.join(" | ");
}

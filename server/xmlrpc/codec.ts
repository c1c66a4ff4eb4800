// XML-RPC on the wire (the specification at xmlrpc.com): a methodCall read into plain values, a
// methodResponse or a fault written back. The XML is read as the imports read theirs
// (server/portability/import-wordpress.ts): fast-xml-parser, checked well-formed first, and any
// DOCTYPE refused before parsing, since entities are how XML reads other files or multiplies
// itself into gigabytes, and no XML-RPC client ever sends one.
import { escapeXml } from "#domain/escape.ts";
import { cleanText } from "#domain/forms.ts";

/** A value XML-RPC carries. */
export type XmlRpcValue =
  string | number | boolean | Date | Buffer | null | XmlRpcValue[] | { [name: string]: XmlRpcValue };

export interface MethodCall {
  methodName: string;
  params: XmlRpcValue[];
}

/** A call that cannot be answered as sent, told to the client as a fault in plain words. */
export class XmlRpcFault extends Error {
  override name = "XmlRpcFault";
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The fault codes of the "specification for fault code interoperability", which WordPress uses too. */
export const FAULT = {
  notWellFormed: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  serverError: -32500,
  /** WordPress's own: wrong user name or password, not allowed, not found. */
  forbidden: 403,
  unauthorized: 401,
  notFound: 404,
  tooMany: 429,
  conflict: 409,
} as const;

type Node = Record<string, unknown>;
type Children = Node[];

const tagOf = (node: Node) => Object.keys(node).find((key) => key !== ":@")!;
const childrenOf = (node: Node) => (node[tagOf(node)] ?? []) as Children;
/** Element children; whitespace between elements is layout, not content. */
const elements = (children: Children) => children.filter((child) => tagOf(child) !== "#text");
const textOf = (children: Children) =>
  decodeReferences(
    children
      .filter((child) => tagOf(child) === "#text")
      .map((child) => String(child["#text"]))
      .join(""),
  );

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML's five named references and numeric ones, in one pass (so `&amp;#233;` stays `&#233;`). */
function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

function only(children: Children, tag: string): Node | undefined {
  return elements(children).find((child) => tagOf(child) === tag);
}

function readValue(valueNode: Node): XmlRpcValue {
  const children = childrenOf(valueNode);
  const [typed, ...extra] = elements(children);
  // <value>text</value> is a string, as the specification says.
  if (!typed) return cleanText(textOf(children));
  if (extra.length > 0) throw new XmlRpcFault(FAULT.invalidRequest, "A value holds one typed element");
  const tag = tagOf(typed);
  const inner = childrenOf(typed);
  switch (tag) {
    case "string":
      return cleanText(textOf(inner));
    case "int":
    case "i4":
    case "i8": {
      const number = Number(textOf(inner).trim());
      if (!Number.isSafeInteger(number)) throw new XmlRpcFault(FAULT.invalidParams, `${tag} holds a whole number`);
      return number;
    }
    case "double": {
      const number = Number(textOf(inner).trim());
      if (!Number.isFinite(number)) throw new XmlRpcFault(FAULT.invalidParams, "double holds a number");
      return number;
    }
    case "boolean": {
      const text = textOf(inner).trim();
      if (text !== "0" && text !== "1") throw new XmlRpcFault(FAULT.invalidParams, "boolean holds 0 or 1");
      return text === "1";
    }
    case "dateTime.iso8601":
      return readDate(textOf(inner).trim());
    case "base64":
      return Buffer.from(textOf(inner).replace(/\s+/g, ""), "base64");
    case "nil":
      return null;
    case "array":
      return elements(childrenOf(only(inner, "data") ?? { data: [] })).map(readValue);
    case "struct": {
      // No prototype: a member named __proto__ is a member like any other.
      const struct = Object.create(null) as Record<string, XmlRpcValue>;
      for (const member of elements(inner)) {
        const parts = childrenOf(member);
        const name = only(parts, "name");
        const value = only(parts, "value");
        if (tagOf(member) !== "member" || !name || !value) {
          throw new XmlRpcFault(FAULT.invalidRequest, "A struct holds members, each with a name and a value");
        }
        struct[textOf(childrenOf(name))] = readValue(value);
      }
      return struct;
    }
    default:
      throw new XmlRpcFault(FAULT.invalidRequest, `${tag} is not an XML-RPC type`);
  }
}

/** `20260131T09:30:00`, with or without dashes, a zone or fractions; without a zone, UTC. */
function readDate(text: string): Date {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  const date = match
    ? new Date(
        `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${match[7] ?? ""}${match[8] ?? "Z"}`,
      )
    : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new XmlRpcFault(FAULT.invalidParams, `${text.slice(0, 40)} is not a date XML-RPC can carry`);
  }
  return date;
}

/** A methodCall, or a fault saying in plain words why it could not be read. */
export async function readMethodCall(xml: string): Promise<MethodCall> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new XmlRpcFault(FAULT.notWellFormed, "The request declares a DOCTYPE or entities, which XML-RPC never needs");
  }
  // Imported on first use, as the imports do: most requests never speak XML (docs/conventions.md).
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    throw new XmlRpcFault(
      FAULT.notWellFormed,
      `The request is not well-formed XML (line ${validation.err.line}: ${validation.err.msg})`,
    );
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: true,
    parseTagValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
  });
  const document = parser.parse(xml) as Children;
  const call = elements(document).find((node) => tagOf(node) === "methodCall");
  const name = call && only(childrenOf(call), "methodName");
  if (!call || !name) throw new XmlRpcFault(FAULT.invalidRequest, "The request is not an XML-RPC methodCall");
  const params = only(childrenOf(call), "params");
  return {
    methodName: textOf(childrenOf(name)).trim(),
    params: elements(params ? childrenOf(params) : []).map((param) => {
      const value = only(childrenOf(param), "value");
      if (tagOf(param) !== "param" || !value) {
        throw new XmlRpcFault(FAULT.invalidRequest, "Each param holds one value");
      }
      return readValue(value);
    }),
  };
}

/** An ISO 8601 time as XML-RPC writes it: `20260131T09:30:00Z`, UTC. */
const writeDate = (date: Date) => `${date.toISOString().slice(0, 19).replace(/-/g, "")}Z`;

function writeValue(value: XmlRpcValue): string {
  if (value === null) return "<value><nil/></value>";
  if (typeof value === "string") return `<value><string>${escapeXml(value)}</string></value>`;
  if (typeof value === "boolean") return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === "number") {
    return Number.isInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`;
  }
  if (value instanceof Date) return `<value><dateTime.iso8601>${writeDate(value)}</dateTime.iso8601></value>`;
  if (Buffer.isBuffer(value)) return `<value><base64>${value.toString("base64")}</base64></value>`;
  if (Array.isArray(value)) return `<value><array><data>${value.map(writeValue).join("")}</data></array></value>`;
  const members = Object.entries(value).map(
    ([name, member]) => `<member><name>${escapeXml(name)}</name>${writeValue(member)}</member>`,
  );
  return `<value><struct>${members.join("")}</struct></value>`;
}

const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function writeResponse(value: XmlRpcValue): string {
  return `${PROLOG}<methodResponse><params><param>${writeValue(value)}</param></params></methodResponse>\n`;
}

export function writeFault(code: number, message: string): string {
  const fault = writeValue({ faultCode: code, faultString: message });
  return `${PROLOG}<methodResponse><fault>${fault}</fault></methodResponse>\n`;
}

import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { cleanJsonStrings, cleanText } from "#domain/forms.ts";

/**
 * The bodies the APIs read (Micropub, IndieAuth, Webmention, Ghost's Admin API), with every
 * string cleaned as a form field is (`cleanText`): control characters dropped, NUL above all,
 * which PostgreSQL refuses wherever it is stored or looked up. The admin's and readers' forms
 * read theirs through `formText`, so every door of the blog reads text alike.
 */
export function readJsonBody(options: { limit: number; type?: (req: IncomingMessage) => boolean }): RequestHandler {
  return express.json({
    ...options,
    reviver: cleanJsonStrings,
  });
}

/** A form-encoded body (`name=value`, a repeated name a list), every value cleaned. */
export function readFormBody(options: { limit: number; parameterLimit: number }): RequestHandler {
  const parse = express.urlencoded({ extended: false, ...options });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      req.body = cleanFormValues(req.body as Record<string, unknown> | undefined);
      next();
    });
}

/** A parsed form's values cleaned; a form's names are the reader's own words, never stored. */
export function cleanFormValues(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  // No prototype: a field named "constructor" or "__proto__" is a field like any other.
  const cleaned = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields ?? {})) {
    cleaned[name] = Array.isArray(value)
      ? value.map((item) => (typeof item === "string" ? cleanText(item) : item))
      : typeof value === "string"
        ? cleanText(value)
        : value;
  }
  return cleaned;
}

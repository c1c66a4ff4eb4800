import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";

export interface MultipartLimits {
  fileBytes: number;
  fields: number;
  fieldBytes: number;
}

/** A file of an upload: in memory, or at `saveFileTo` when the caller gave a path. */
export interface ReceivedFile {
  name: string;
  type: string;
  bytes: Buffer | undefined;
  /** The form field it came in. */
  field: string;
}

export interface MultipartFiles {
  /** The fields whose files are read (others are skipped); `file` unless said. */
  fields: readonly string[];
  /** How many files are read, at most; the rest are skipped. */
  max: number;
}

export type Multipart =
  | { readable: false }
  | {
      readable: true;
      /** The text fields, and each file's name under its field (its bytes are not here). */
      fields: FormData;
      /** The first file read. */
      file: ReceivedFile | undefined;
      /** Every file read, in the order they came. */
      files: ReceivedFile[];
      /** The file went past `limits.fileBytes`: what was read of it is incomplete. */
      tooLarge: boolean;
    };

/**
 * Reads a multipart body (image uploads and imports) with busboy, streaming the file named
 * `file` (or the few `files` asks for, as Micropub's photos) into memory or to disk as it
 * arrives: `request.formData()` would hold the whole body, several times over, while it parses.
 * Each file stops at `limits.fileBytes` (`tooLarge`); the size a body may declare is checked
 * before this, in server/http-body-limits.ts.
 */
export async function readMultipart(
  request: Request,
  {
    limits,
    saveFileTo,
    files: wanted = { fields: ["file"], max: 1 },
  }: {
    limits: MultipartLimits;
    /** Where the one file goes on disk; only with a single file (`files.max` 1). */
    saveFileTo?: string;
    files?: MultipartFiles;
  },
): Promise<Multipart> {
  const fields = new FormData();
  const files: ReceivedFile[] = [];
  let tooLarge = false;
  const writes: Promise<void>[] = [];
  let writeFailed = false;
  try {
    const parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { files: wanted.max, fields: limits.fields, fieldSize: limits.fieldBytes, fileSize: limits.fileBytes },
    });
    parser.on("field", (name, value) => fields.append(name, value));
    parser.on("file", (name, stream, info) => {
      // A part cut short errors on its own stream too (the parser reports it); unheard, it ends the process.
      stream.on("error", () => undefined);
      if (!wanted.fields.includes(name) || !info.filename) {
        stream.resume();
        return;
      }
      const received: ReceivedFile = { name: info.filename, type: info.mimeType, bytes: undefined, field: name };
      files.push(received);
      // The name is all a form definition needs; an empty File stands for the one read here.
      fields.append(name, new File([], info.filename));
      stream.on("limit", () => {
        tooLarge = true;
      });
      const chunks: Buffer[] = [];
      const sink = saveFileTo
        ? createWriteStream(saveFileTo)
        : new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          });
      writes.push(
        pipeline(stream, sink).then(
          () => {
            if (!saveFileTo) received.bytes = Buffer.concat(chunks);
          },
          () => {
            writeFailed = true;
          },
        ),
      );
    });
    if (!request.body) return { readable: false };
    await parseWithoutCancelling(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), parser);
    await Promise.all(writes);
    if (writeFailed) return { readable: false };
  } catch {
    // A malformed body, a Content-Type busboy cannot read, or a connection cut mid-upload.
    return { readable: false };
  }
  return { readable: true, fields, file: files[0], files, tooLarge };
}

/**
 * Feeds the body to the parser and waits for it. Unlike `pipeline`, a failure does not destroy
 * the body: destroying it closes the connection, so a malformed or cut-short upload would get no
 * answer at all instead of its 400.
 */
function parseWithoutCancelling(body: Readable, parser: busboy.Busboy): Promise<void> {
  return new Promise((resolve, reject) => {
    body.once("error", reject);
    parser.once("error", (error: unknown) => {
      body.unpipe(parser);
      // What is left of the body is read and dropped, so the answer can follow it.
      body.resume();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
    parser.once("close", () => resolve());
    body.pipe(parser);
  });
}

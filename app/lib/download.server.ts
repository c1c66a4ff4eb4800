/**
 * A file to download, written as `chunks` yields its text: a large export never sits in memory,
 * and a download the browser abandons stops the generator (and its database reads).
 */
export function textDownload(
  chunks: AsyncGenerator<string>,
  { contentType, filename }: { contentType: string; filename: string },
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Today's date as an export's file name carries it (2025-01-31). */
export function downloadDay(): string {
  return new Date().toISOString().slice(0, 10);
}

import type { Cookie } from "react-router";
import { VISITOR_PENDING_MAX } from "#server/services/comments.ts";

/** The ids of the visitor's comments awaiting moderation, from their signed cookie; [] when absent or forged. */
export async function readPendingCommentIds(request: Request, cookie: Cookie): Promise<string[]> {
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  return Array.isArray(value)
    ? value.filter((id): id is string => typeof id === "string").slice(-VISITOR_PENDING_MAX)
    : [];
}

/** The Set-Cookie header that adds one held comment, keeping only the newest few. */
export async function rememberPendingComment(request: Request, cookie: Cookie, id: string): Promise<string> {
  const ids = [...(await readPendingCommentIds(request, cookie)), id].slice(-VISITOR_PENDING_MAX);
  return cookie.serialize(ids);
}

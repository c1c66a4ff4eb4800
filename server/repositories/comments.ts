import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId, toIsoString } from "./posts.ts";

export interface Comment {
  id: string;
  postId: string;
  author: string;
  content: string;
  createdAt: string;
}

export async function listCommentsForPost(db: Kysely<Database>, postId: string): Promise<Comment[]> {
  const rows = await db
    .selectFrom("comments")
    .selectAll()
    .where("post_id", "=", postId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    postId: row.post_id,
    author: row.author,
    content: row.content,
    createdAt: toIsoString(row.created_at),
  }));
}

export async function insertComment(
  db: Kysely<Database>,
  fields: { postId: string; author: string; content: string; createdAt: string },
): Promise<Comment> {
  const id = newId();
  await db
    .insertInto("comments")
    .values({
      id,
      post_id: fields.postId,
      author: fields.author,
      content: fields.content,
      created_at: fields.createdAt,
    })
    .execute();
  return { id, ...fields };
}

import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import { toIsoString } from "./rows.ts";

type Db = Kysely<Database> | Transaction<Database>;

export async function insertPreviewToken(
  db: Db,
  token: { tokenHash: string; postId: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto("post_preview_tokens")
    .values({ token_hash: token.tokenHash, post_id: token.postId, created_at: token.createdAt })
    .execute();
}

/** The post a preview link opens, if the link still exists. */
export async function findPreviewPostId(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("post_preview_tokens")
    .select("post_id")
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row?.post_id;
}

/** When the post's newest live preview link was made; undefined when it has none. */
export async function findPreviewLinkCreatedAt(db: Db, postId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("post_preview_tokens")
    .select((eb) => eb.fn.max("created_at").as("created_at"))
    .where("post_id", "=", postId)
    .executeTakeFirst();
  return row?.created_at ? toIsoString(row.created_at) : undefined;
}

export async function deletePreviewTokens(db: Db, postId: string): Promise<void> {
  await db.deleteFrom("post_preview_tokens").where("post_id", "=", postId).execute();
}

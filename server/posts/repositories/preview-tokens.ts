import type { ColumnType, Insertable, Kysely, Transaction } from "kysely";
import type { Database, PostPreviewTokensTable } from "../../kernel/db/schema.ts";
import { toIsoString } from "../../kernel/rows.ts";

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Where preview links are kept: posts' and pages' tokens (migration 0020) share every column
 * but the one naming what the link shows, so one set of statements serves both.
 */
export const POST_PREVIEWS = { table: "post_preview_tokens", owner: "post_id" } as const;
export const PAGE_PREVIEWS = { table: "page_preview_tokens", owner: "page_id" } as const;
export type PreviewTokens = typeof POST_PREVIEWS | typeof PAGE_PREVIEWS;

/** An owner column may be left out of an insert: the other one is. */
type TokenColumns = Omit<PostPreviewTokensTable, "post_id"> &
  Record<PreviewTokens["owner"], ColumnType<string, string | undefined, string>>;
/** Both tables as one shape, so a statement can name either: only `tokens.owner` is ever used of the two owners. */
const tokensDb = (db: Db) => db as unknown as Kysely<Record<PreviewTokens["table"], TokenColumns>>;

export async function insertPreviewToken(
  tokens: PreviewTokens,
  db: Db,
  token: { tokenHash: string; ownerId: string; createdAt: string },
): Promise<void> {
  await tokensDb(db)
    .insertInto(tokens.table)
    .values({
      token_hash: token.tokenHash,
      [tokens.owner]: token.ownerId,
      created_at: token.createdAt,
    } as Insertable<TokenColumns>)
    .execute();
}

/** The post or page a preview link opens, if the link still exists. */
export async function findPreviewOwnerId(
  tokens: PreviewTokens,
  db: Db,
  tokenHash: string,
): Promise<string | undefined> {
  const row = await tokensDb(db)
    .selectFrom(tokens.table)
    .select(`${tokens.owner} as owner`)
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row?.owner;
}

/** When the newest live preview link was made; undefined when there is none. */
export async function findPreviewLinkCreatedAt(
  tokens: PreviewTokens,
  db: Db,
  ownerId: string,
): Promise<string | undefined> {
  const row = await tokensDb(db)
    .selectFrom(tokens.table)
    .select((eb) => eb.fn.max("created_at").as("created_at"))
    .where(tokens.owner, "=", ownerId)
    .executeTakeFirst();
  return row?.created_at ? toIsoString(row.created_at) : undefined;
}

export async function deletePreviewTokens(tokens: PreviewTokens, db: Db, ownerId: string): Promise<void> {
  await tokensDb(db).deleteFrom(tokens.table).where(tokens.owner, "=", ownerId).execute();
}

import type { CompiledQuery, Kysely, KyselyPlugin, QueryId, RootOperationNode } from "kysely";
import type { Database } from "../../server/kernel/db/schema.ts";

/**
 * The same database, through a handle that keeps the SQL of every statement it runs
 * (transactions included), so a test can say how many statements a request costs and what
 * they read. Kysely shows a plugin each query before it runs (subqueries too, under their
 * own ids) and each result after; only a query that came back was a statement.
 */
export function recordStatements(db: Kysely<Database>): {
  db: Kysely<Database>;
  statements: string[];
  /** The same statements with their parameters, to ask the database how it plans them. */
  compiled: CompiledQuery[];
} {
  const statements: string[] = [];
  const compiled: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const built = new Map<QueryId, RootOperationNode>();
  const recorder: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      built.set(queryId, node);
      return node;
    },
    async transformResult({ result, queryId }) {
      const node = built.get(queryId);
      if (node) {
        const query = executor.compileQuery(node, queryId);
        statements.push(query.sql);
        compiled.push(query);
      }
      return result;
    },
  };
  return { db: db.withPlugin(recorder), statements, compiled };
}

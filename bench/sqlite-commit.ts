// What a durable commit costs: single-row commits in WAL mode with synchronous NORMAL and FULL
// (docs/decisions/0009-durability-and-portability.md). Run on the disk the blog lives on.
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";

const COMMITS = 2_000;
const directory = mkdtempSync(path.join(process.cwd(), ".bench-commit-"));
try {
  for (const mode of ["NORMAL", "FULL"]) {
    const database = new SqliteDatabase(path.join(directory, `${mode}.sqlite`));
    database.pragma("journal_mode = WAL");
    database.pragma(`synchronous = ${mode}`);
    database.exec("create table comments (id integer primary key, content text not null)");
    const insert = database.prepare("insert into comments (content) values (?)");
    const started = performance.now();
    for (let index = 0; index < COMMITS; index += 1) insert.run(`comment ${index}`);
    const elapsed = performance.now() - started;
    console.log(
      `synchronous=${mode}: ${COMMITS} commits in ${elapsed.toFixed(0)} ms, ${(elapsed / COMMITS).toFixed(3)} ms each`,
    );
    database.close();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

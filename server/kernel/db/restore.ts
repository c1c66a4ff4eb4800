import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import SqliteDatabase from "better-sqlite3";

/** A server writes its pid beside the SQLite file it serves, so a restore can tell it is running. */
export function pidFileOf(databaseFile: string): string {
  return `${databaseFile}.pid`;
}

/** Claims the database file for this process; the returned function releases it at shutdown. */
export function holdPidFile(databaseFile: string): () => void {
  const file = pidFileOf(databaseFile);
  writeFileSync(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}

/** The pid of a live server on this file, if any; a pid file left by a killed server does not count. */
export function runningServerPid(databaseFile: string): number | undefined {
  const file = pidFileOf(databaseFile);
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}

export class RestoreError extends Error {
  override name = "RestoreError";
}

/**
 * Replaces the database file with a checked copy of the backup. The old file is kept as
 * `<file>.before-restore`, or `<file>.before-restore-2`, `-3`… when an earlier restore's copy is
 * there, so a second restore never replaces the blog as it was before the first. The swap is one
 * rename, so the file is always one or the other.
 */
export function restoreSqlite(
  backupFile: string,
  databaseFile: string,
  /** Told each step as it starts: checking can take a while on a large backup. */
  onStep: (step: string) => void = () => {},
): { previous: string | undefined } {
  if (!existsSync(backupFile)) throw new RestoreError(`${backupFile} does not exist.`);
  const pid = runningServerPid(databaseFile);
  if (pid !== undefined) {
    throw new RestoreError(`The blog is running on ${databaseFile} (process ${pid}); stop it before restoring.`);
  }
  let backup: SqliteDatabase.Database;
  try {
    backup = new SqliteDatabase(backupFile, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new RestoreError(`${backupFile} is not a SQLite database: ${(error as Error).message}`);
  }
  onStep(`Checking ${backupFile}`);
  try {
    const problems = (backup.pragma("integrity_check") as { integrity_check: string }[]).map(
      (row) => row.integrity_check,
    );
    if (problems.join() !== "ok")
      throw new RestoreError(`${backupFile} is damaged: ${problems.slice(0, 3).join("; ")}`);
    const hasPosts = backup.prepare("select 1 from sqlite_master where type = 'table' and name = 'posts'").get();
    if (!hasPosts) throw new RestoreError(`${backupFile} is not a backup of this blog (it has no posts table).`);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`${backupFile} is not a SQLite database: ${(error as Error).message}`);
  } finally {
    backup.close();
  }

  onStep(`Copying it into place at ${databaseFile}`);
  const incoming = `${databaseFile}.restoring`;
  copyFileSync(backupFile, incoming);
  let previous: string | undefined;
  if (existsSync(databaseFile)) {
    previous = unusedName(`${databaseFile}.before-restore`);
    renameSync(databaseFile, previous);
    // A WAL left by a killed server belongs to the old file and must never be replayed into the new one.
    for (const suffix of ["-wal", "-shm"]) {
      if (existsSync(databaseFile + suffix)) renameSync(databaseFile + suffix, previous + suffix);
    }
  }
  renameSync(incoming, databaseFile);
  return { previous };
}

/** `base`, or `base-2`, `base-3`… the first that names no file, with or without its WAL. */
function unusedName(base: string): string {
  const taken = (name: string) => ["", "-wal", "-shm"].some((suffix) => existsSync(name + suffix));
  let name = base;
  for (let count = 2; taken(name); count += 1) name = `${base}-${count}`;
  return name;
}

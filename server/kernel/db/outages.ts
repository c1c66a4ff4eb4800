import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";
import { recogniseOutage } from "../errors.ts";

/**
 * The dialect with its driver wrapped, so that every query, transaction and connection of the
 * Kysely instance built on it fails the same way: a failure of the database itself (as
 * `isDatabaseUnavailable` knows them) as one DatabaseUnavailableError keeping its cause, a 503
 * with the route's message; anything else as it was thrown, a bug answered 500 with its stack.
 * Services call repositories plainly; no call site needs to remember outages.
 */
export function recognisingOutages(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new OutageRecognisingDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

async function recognised<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw recogniseOutage(error);
  }
}

type CompileQuery = QueryCompiler["compileQuery"];

class OutageRecognisingDriver implements Driver {
  readonly #driver: Driver;
  /** One wrapper per connection: drivers hand the same connection out again, and Kysely tells them apart. */
  readonly #wrappers = new WeakMap<DatabaseConnection, OutageRecognisingConnection>();

  constructor(driver: Driver) {
    this.#driver = driver;
  }

  init(...args: Parameters<Driver["init"]>): Promise<void> {
    return recognised(() => this.#driver.init(...args));
  }

  async acquireConnection(...args: Parameters<Driver["acquireConnection"]>): Promise<DatabaseConnection> {
    const connection = await recognised(() => this.#driver.acquireConnection(...args));
    let wrapper = this.#wrappers.get(connection);
    if (!wrapper) {
      wrapper = new OutageRecognisingConnection(connection);
      this.#wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return recognised(() => this.#driver.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return recognised(() => this.#driver.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return recognised(() => this.#driver.rollbackTransaction(unwrap(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    return recognised(() => this.#savepointCall("savepoint")(unwrap(connection), name, compileQuery));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    return recognised(() => this.#savepointCall("rollbackToSavepoint")(unwrap(connection), name, compileQuery));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    return recognised(() => this.#savepointCall("releaseSavepoint")(unwrap(connection), name, compileQuery));
  }

  releaseConnection(connection: DatabaseConnection, ...rest: DropFirst<Parameters<Driver["releaseConnection"]>>) {
    return recognised(() => this.#driver.releaseConnection(unwrap(connection), ...rest));
  }

  destroy(...args: Parameters<Driver["destroy"]>): Promise<void> {
    return recognised(() => this.#driver.destroy(...args));
  }

  #savepointCall(name: "savepoint" | "rollbackToSavepoint" | "releaseSavepoint") {
    const call = this.#driver[name];
    if (!call) throw new Error(`This database driver has no ${name}`);
    return call.bind(this.#driver);
  }
}

type DropFirst<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

class OutageRecognisingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }

  executeQuery<R>(query: CompiledQuery, ...rest: DropFirst<Parameters<DatabaseConnection["executeQuery"]>>) {
    return recognised(() => this.inner.executeQuery<R>(query, ...rest));
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    ...rest: DropFirst<DropFirst<Parameters<DatabaseConnection["streamQuery"]>>>
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      // An early stop by the reader returns this generator, which returns the driver's stream too.
      yield* this.inner.streamQuery<R>(query, chunkSize, ...rest);
    } catch (error) {
      throw recogniseOutage(error);
    }
  }
}

/** The driver's own connection: its methods reach into private state a wrapper lacks. */
function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof OutageRecognisingConnection ? connection.inner : connection;
}

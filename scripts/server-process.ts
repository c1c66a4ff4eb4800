// How a production server process is started: by `npm start`, and the same way by the
// end-to-end servers and the benchmarks, so that tests and figures see what writers run.
// Uses nothing outside Node itself, like scripts/start.ts.

/**
 * V8 sizes its heap from the machine's memory, and on a large machine it lets a server grow
 * to several times what it keeps (docs/decisions/0005, "Memory"):
 * - the young generation holds at most 2 × 8 MB;
 * - the old generation grows by a fifth past what the last full collection kept, not fourfold.
 * The old generation has no cap: reading a 64 MB WordPress export takes about 1 GB for a moment.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8", "--heap-growing-percent=20"];

/** glibc gives threads up to eight arenas per core; two keep freed memory reused. */
export const SERVER_ENVIRONMENT = { MALLOC_ARENA_MAX: "2" };

/** The arguments that start `server.ts` under the flags above. */
export const serverArguments = (): string[] => [...SERVER_NODE_FLAGS, "server.ts"];

// Entry of the server bundle (vite.config.ts): everything server.ts wires together.
import type { ServerBuild } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";

export const build = serverBuild as unknown as ServerBuild;
export { openCountryLookup } from "./analytics/index.ts";
export { prepareDatabase } from "./boot.ts";
export { startContentChangeRelay } from "./kernel/content-change-relay.ts";
export { ConfigError, parseConfig, resolveCommentIpSalt, resolveSessionSecret } from "./kernel/config.ts";
export { DatabaseUnavailableError, openDatabase } from "./kernel/db/connect.ts";
export { createBlogFederation } from "./fediverse/index.ts";
export { holdPidFile } from "./kernel/db/restore.ts";
export { createHttpApp, refuseConnect } from "./http.ts";
export { createLogger } from "./kernel/logger.ts";
export { reportTo, startWorkers, stopWorkers } from "./kernel/workers.ts";
export { createPageCache } from "./kernel/page-cache.ts";
export { createMailer } from "./newsletter/index.ts";
export { createServices } from "./composition.ts";

// Entry of the server bundle (vite.config.ts): everything server.ts wires together.
import type { ServerBuild } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";

export const build = serverBuild as unknown as ServerBuild;
export { openCountryLookup } from "./analytics/geoip.ts";
export { prepareDatabase } from "./boot.ts";
export { startContentChangeRelay } from "./content-change-relay.ts";
export { ConfigError, parseConfig, resolveCommentIpSalt, resolveSessionSecret } from "./config.ts";
export { DatabaseUnavailableError, openDatabase } from "./db/connect.ts";
export { createBlogFederation } from "./federation/federation.ts";
export { holdPidFile } from "./db/restore.ts";
export { createHttpApp, refuseConnect } from "./http.ts";
export { createLogger } from "./logger.ts";
export { reportTo, startWorkers, stopWorkers } from "./kernel/workers.ts";
export { createPageCache } from "./page-cache.ts";
export { createMailer } from "./services/mailer.ts";
export { createServices } from "./services/index.ts";

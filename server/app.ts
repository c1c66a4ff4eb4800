// Entry of the server bundle (vite.config.ts): everything server.ts wires together.
import type { ServerBuild } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";

export const build = serverBuild as unknown as ServerBuild;
export { prepareDatabase } from "./boot.ts";
export { ConfigError, parseConfig, resolveSessionSecret } from "./config.ts";
export { DatabaseUnavailableError, openDatabase } from "./db/connect.ts";
export { createHttpApp } from "./http.ts";
export { createLogger } from "./logger.ts";
export { createServices } from "./services/index.ts";

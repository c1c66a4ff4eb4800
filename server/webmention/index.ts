// The Webmention capability's public face (README.md).
export { serveWebmention } from "./http.ts";
export { createWebmentionService, type WebmentionService, type WebmentionTuning } from "./service.ts";

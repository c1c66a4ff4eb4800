// The fediverse capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { type BlogFederation, createBlogFederation, type FederationHandle } from "./federation.ts";
export { serveFederation } from "./http.ts";
export { recordAnnouncedWithoutSending } from "./repositories/fediverse-posts.ts";
export { createFediverseService } from "./service.ts";

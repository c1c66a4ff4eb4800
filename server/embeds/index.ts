// The Embeds capability's public face (README.md).
export { CARDS_PER_WRITER, createEmbedsService, type EmbedsService } from "./service.ts";

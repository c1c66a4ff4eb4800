// The demo capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { seedDemoContent } from "./service.ts";

// The demo capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { createDemoService, type DemoService, type DemoSurvey, seedDemoContent } from "./service.ts";
export { demoPosts } from "./demo-content.ts";

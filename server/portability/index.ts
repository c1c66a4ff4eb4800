// The portability capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { isZip } from "./import-archive.ts";
export { refuseTooLarge } from "./import-report.ts";
export { createPortabilityService } from "./service.ts";

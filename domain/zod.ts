import { z } from "zod";

// Unless told otherwise, zod probes for `new Function` to compile fast object parsers. The
// CSP forbids eval, so in the browser the probe is a CSP violation that Chromium reports
// on every page with a form (Lighthouse: "Issues were logged"). Interpreted parsing is
// fast enough for forms.
z.config({ jitless: true });

export { z };

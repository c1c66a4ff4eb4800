import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * Browser features no page of the blog uses, refused to the page and anything it embeds.
 * Left out: clipboard-write (the admin's "Copy URL" buttons) and fullscreen (embedded video).
 * Only features Chromium knows: it reports an unknown one (interest-cohort, the withdrawn
 * FLoC, now browsing-topics) as an error on every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "serial",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => `${feature}=()`)
  .join(", ");

/** Sends PERMISSIONS_POLICY on every response, refusals and cached pages included. */
export function denyBrowserFeatures(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    next();
  };
}

/**
 * Helmet's headers for every response. In development Vite injects inline scripts of its own,
 * so there is no Content-Security-Policy; in production the page cache adds the sha256 of each
 * inline script of the page to `script-src` (docs/decisions/0005).
 */
export function sendSecurityHeaders(options: { siteUrl: string; isDev: boolean }): RequestHandler {
  const https = options.siteUrl.startsWith("https:");
  return helmet({
    contentSecurityPolicy: options.isDev
      ? false
      : {
          directives: {
            "script-src": ["'self'"],
            "style-src": ["'self'", "'unsafe-inline'"],
            "img-src": ["'self'", "data:", "https:", "http:"],
            "form-action": ["'self'"],
            "upgrade-insecure-requests": https ? [] : null,
          },
        },
    // Chromium sends `Origin: null` on form posts under `no-referrer`, which would fail our origin check.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: https,
    // `same-origin` for pages and the admin; the images answered from the media store say
    // `cross-origin` themselves (sendFile, server/media/http.ts), so emails and other sites can show them.
    crossOriginResourcePolicy: { policy: "same-origin" },
  });
}

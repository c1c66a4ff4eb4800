/**
 * The site's look (docs/decisions/0017): an accent colour checked against WCAG AA, and a body
 * typeface among system font stacks. Client-safe: the settings form and the server share it.
 */

/** The page backgrounds and the dark button text of both themes (Tailwind's white and slate-950). */
export const LIGHT_BACKGROUND = "#ffffff";
export const DARK_BACKGROUND = "#020618";
/** WCAG 2.x AA for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;
/** How much white the dark theme's accent is mixed with, as indigo-300 stands to indigo-700 today. */
const DARK_THEME_WHITE = 0.55;

export const HEX_COLOR_PATTERN = /^#[0-9a-f]{6}$/i;

type Rgb = [number, number, number];

function toRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/** WCAG 2.x relative luminance of an sRGB colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = toRgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio, from 1 to 21, whichever colour is the lighter. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** `amount` of `other` mixed into `hex`, channel by channel in sRGB (what the page gets is this hex). */
function mix(hex: string, other: string, amount: number): string {
  const a = toRgb(hex);
  const b = toRgb(other);
  return toHex([0, 1, 2].map((i) => a[i]! * (1 - amount) + b[i]! * amount) as Rgb);
}

/** The dark theme's accent: the writer's colour lightened, as the product's own indigo-300 is. */
export function darkThemeAccent(accent: string): string {
  return mix(accent.toLowerCase(), "#ffffff", DARK_THEME_WHITE);
}

/**
 * Every shade of the product's accent scale (Tailwind's indigo) made from the writer's colour:
 * 700 is the colour itself (links and buttons in the light theme), 300 the dark theme's accent,
 * lighter shades mixed with white and darker ones with black.
 */
export function accentScale(accent: string): Record<number, string> {
  const base = accent.toLowerCase();
  const white = (amount: number) => mix(base, "#ffffff", amount);
  const black = (amount: number) => mix(base, "#000000", amount);
  return {
    50: white(0.94),
    100: white(0.88),
    200: white(0.72),
    300: darkThemeAccent(base),
    400: white(0.38),
    500: white(0.22),
    600: white(0.1),
    700: base,
    800: black(0.18),
    900: black(0.35),
    950: black(0.55),
  };
}

/** One decimal, truncated as WebAIM does, so a ratio just under 4.5 never reads "4.5". */
const oneDecimal = (ratio: number) => (Math.floor(ratio * 10) / 10).toFixed(1);

/**
 * Why an accent colour fails WCAG AA in either theme, in a writer's words, or undefined when it
 * passes: links in the accent on the page's background, and the button's text on an accent button
 * (white in the light theme, slate-950 in the dark one), each at least 4.5 : 1.
 */
export function accentContrastProblem(accent: string): string | undefined {
  const dark = darkThemeAccent(accent);
  const pairings = [
    {
      problem: "This colour is too light to read on white",
      ratio: contrastRatio(accent, LIGHT_BACKGROUND),
      fix: "darker",
    },
    { problem: "White text on this colour is hard to read", ratio: contrastRatio("#ffffff", accent), fix: "darker" },
    {
      problem: `In the dark theme, this colour (shown as ${dark}) is too dark to read`,
      ratio: contrastRatio(dark, DARK_BACKGROUND),
      fix: "brighter",
    },
    {
      problem: `In the dark theme, dark text on this colour (shown as ${dark}) is hard to read`,
      ratio: contrastRatio(DARK_BACKGROUND, dark),
      fix: "brighter",
    },
  ];
  const failing = pairings.find((pairing) => pairing.ratio < MIN_TEXT_CONTRAST);
  if (!failing) return undefined;
  return `${failing.problem} (${oneDecimal(failing.ratio)} : 1; it needs 4.5 : 1). Try a ${failing.fix} shade.`;
}

/** The body typefaces a writer may choose: system font stacks only, so no font is fetched. */
export const BODY_TYPEFACES = {
  sans: {
    label: "Sans-serif (the default: sans-serif pages, serif post bodies)",
    stack: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  serif: { label: "Serif", stack: 'ui-serif, Georgia, Cambria, "Times New Roman", serif' },
  mono: { label: "Monospace", stack: 'ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace' },
} as const;

export type BodyTypeface = keyof typeof BODY_TYPEFACES;
export const BODY_TYPEFACE_NAMES = Object.keys(BODY_TYPEFACES) as [BodyTypeface, ...BodyTypeface[]];

/**
 * The rules a reader's page adds to its inlined stylesheet for the writer's look: custom
 * properties only, empty for the product's own look, so a default site's pages stay byte for byte.
 */
export function lookStylesheet(look: { accentColor: string; bodyTypeface: BodyTypeface }): string {
  const properties: string[] = [];
  if (look.accentColor) {
    for (const [shade, color] of Object.entries(accentScale(look.accentColor))) {
      properties.push(`--color-indigo-${shade}:${color}`);
    }
  }
  if (look.bodyTypeface !== "sans") {
    const stack = BODY_TYPEFACES[look.bodyTypeface].stack;
    properties.push(`--default-font-family:${stack}`, `--font-body:${stack}`);
  }
  return properties.length === 0 ? "" : `:root{${properties.join(";")}}`;
}

/** How the settings hold the logo: the hash of its file and its size, `{hash}:{width}x{height}`. */
export const LOGO_VALUE_PATTERN = /^([0-9a-f]{64}):([1-9][0-9]{0,3})x([1-9][0-9]{0,3})$/;
export const SITE_ICON_VALUE_PATTERN = /^[0-9a-f]{64}$/;

/** The header's logo image, or undefined when the writer has none. */
export function logoImage(logo: string): { src: string; width: number; height: number } | undefined {
  const [, hash, width, height] = LOGO_VALUE_PATTERN.exec(logo) ?? [];
  if (!hash) return undefined;
  return { src: `/media/${hash}/${width}.png`, width: Number(width), height: Number(height) };
}

/** Where each size of the site icon is served (server/media/site-icons-http.ts), fixed addresses browsers ask for. */
export const SITE_ICON_PATHS = {
  favicon: { path: "/favicon-32.png", size: 32 },
  appleTouchIcon: { path: "/apple-touch-icon.png", size: 180 },
  manifestSmall: { path: "/icon-192.png", size: 192 },
  manifestLarge: { path: "/icon-512.png", size: 512 },
} as const;
export const MANIFEST_PATH = "/manifest.webmanifest";

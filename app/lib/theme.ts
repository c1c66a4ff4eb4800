export const THEME_STORAGE_KEY = "theme";
export type Theme = "light" | "dark";

/**
 * Runs inline in <head> before the body paints, so a server-rendered page never
 * flashes the wrong theme: the stored choice wins, else the system preference.
 */
export const themeBootScript = `(function(){try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);}catch(e){}})();`;

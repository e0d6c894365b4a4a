// Light, dark or the system's choice: stored in localStorage and applied as a class on <html>
// before the first paint (the inline script in app/layout.tsx), so no page flashes the other
// theme. Pure strings and one DOM function; no React.
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = "baton-theme";

export function themeOf(stored: string | null | undefined): Theme {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/*
 * The before-paint script: the same rule as applyTheme, written out because it runs before any
 * bundle loads. A storage error (private mode, blocked storage) leaves the system's theme.
 */
export const THEME_BOOT_SCRIPT = `(function(){var t;try{t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)})}catch(e){}var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var c=document.documentElement.classList;c.toggle("dark",d);c.toggle("light",!d)})()`;

/** Puts `theme` on the document: `system` follows the media query as it is now. */
export function applyTheme(theme: Theme): void {
  const dark =
    theme === "dark" ||
    (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  const classes = document.documentElement.classList;
  classes.toggle("dark", dark);
  classes.toggle("light", !dark);
}

// What this browser keeps of the look: light, dark or the system's theme, and a dismissed
// offline-model notice. Stored in localStorage and applied as classes on <html> before the first
// paint (the inline script in app/layout.tsx), so no page flashes what the user turned off.
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = "baton-theme";

export function themeOf(stored: string | null | undefined): Theme {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** The class on <html> that hides the offline-model notice the user dismissed. */
const NOTICE_DISMISSED_CLASS = "offline-notice-dismissed";
const NOTICE_STORAGE_KEY = "baton-offline-notice";

/*
 * The before-paint script: the same rule as applyTheme, and the dismissed notice, written out
 * because it runs before any bundle loads. A storage error (private mode, blocked storage) leaves
 * the system's theme and the notice shown.
 */
export const BOOT_SCRIPT = `(function(){var s={};try{s.t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)});s.n=localStorage.getItem(${JSON.stringify(NOTICE_STORAGE_KEY)})}catch(e){}var t=s.t,d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var c=document.documentElement.classList;c.toggle("dark",d);c.toggle("light",!d);if(s.n==="dismissed")c.add(${JSON.stringify(NOTICE_DISMISSED_CLASS)})})()`;

/** Hides the offline-model notice in this browser from now on. */
export function dismissNotice(): void {
  try {
    localStorage.setItem(NOTICE_STORAGE_KEY, "dismissed");
  } catch {
    // Storage refused: hidden for this page only.
  }
  document.documentElement.classList.add(NOTICE_DISMISSED_CLASS);
}

/** Puts `theme` on the document: `system` follows the media query as it is now. */
export function applyTheme(theme: Theme): void {
  const dark =
    theme === "dark" ||
    (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  const classes = document.documentElement.classList;
  classes.toggle("dark", dark);
  classes.toggle("light", !dark);
}

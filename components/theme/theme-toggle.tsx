"use client";
// Light / Dark / System, as a radio group: the choice is kept in this browser and applied at
// once; with System the page follows the operating system's setting while it is open.
import { useEffect, useState } from "react";
import { applyTheme, THEME_STORAGE_KEY, THEMES, type Theme, themeOf } from "@/lib/theme/theme";

const LABELS: Record<Theme, string> = { light: "Light", dark: "Dark", system: "System" };

function readStored(): Theme {
  try {
    return themeOf(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return "system";
  }
}

export function ThemeToggle() {
  // "system" on the server and the first client render; the stored choice after mount (the
  // before-paint script has already applied it, so nothing flashes).
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => setTheme(readStored()), []);

  useEffect(() => {
    if (theme !== "system") return;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyTheme("system");
    media.addEventListener("change", follow);
    return () => media.removeEventListener("change", follow);
  }, [theme]);

  function choose(next: Theme) {
    setTheme(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode): the choice still holds for this page.
    }
    applyTheme(next);
  }

  return (
    <fieldset className="mt-2">
      <legend className="sr-only">Theme</legend>
      <div className="flex rounded-md border border-zinc-200 p-0.5 dark:border-zinc-700">
        {THEMES.map((t) => (
          <label
            key={t}
            className={`flex-1 cursor-pointer rounded px-2 py-1 text-center text-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 ${
              theme === t
                ? "bg-white font-medium text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-zinc-50"
                : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            }`}
          >
            <input
              type="radio"
              name="theme"
              value={t}
              checked={theme === t}
              onChange={() => choose(t)}
              className="sr-only"
            />
            {LABELS[t]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

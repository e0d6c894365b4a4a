// The security headers of every response. Two layers set them (docs/security.md):
// - proxy.ts, for pages: a Content-Security-Policy with a fresh script nonce per request (Next
//   reads the nonce from the request's CSP header and puts it on its own script tags);
// - next.config.ts `headers()`, for everything: the static headers below, plus a script-free CSP
//   and `Cache-Control: no-store` on the paths proxy.ts leaves alone (the API and the share
//   view's own API). Route handlers stay out of the proxy because a proxy makes Next buffer
//   each request body before the handler runs, and the route wrapper must be able to refuse an
//   oversized body without reading it.
// Both layers must agree on which paths are pages: a unit test checks every page and route file.

type Header = { key: string; value: string };
export type HeaderRule = { source: string; headers: Header[] };

/** The directives every response shares; only `default-src` and `script-src` differ. */
const COMMON_DIRECTIVES: [string, string][] = [
  // The virtualizer and toasts set inline styles; styles cannot run code.
  ["style-src", "'self' 'unsafe-inline'"],
  // Only the app's own images, data: and blob: URLs. Messages never embed external images
  // (components/chat/message-view.tsx renders them as links), and this enforces it.
  ["img-src", "'self' data: blob:"],
  ["font-src", "'self'"],
  ["object-src", "'none'"],
  ["base-uri", "'none'"],
  ["form-action", "'self'"],
  ["frame-ancestors", "'none'"],
];

function serialize(directives: [string, string][]): string {
  return directives.map(([name, value]) => `${name} ${value}`).join("; ");
}

/**
 * The page policy: scripts run only with this request's nonce; scripts those load are trusted
 * ('strict-dynamic'), so Next's chunk loading works and an injected <script> does not. In
 * development React needs eval for its debugging aids.
 */
export function pageContentSecurityPolicy({ nonce, dev }: { nonce: string; dev: boolean }) {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(nonce)) throw new Error("a nonce is base64");
  return serialize([
    ["default-src", "'self'"],
    ["script-src", `'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`],
    ["connect-src", "'self'"],
    ...COMMON_DIRECTIVES,
  ]);
}

/** The policy of responses that are not pages (JSON, Next's HTML 404 under /api): no scripts. */
export const STATIC_CONTENT_SECURITY_POLICY = serialize([
  ["default-src", "'none'"],
  ["script-src", "'none'"],
  ["connect-src", "'none'"],
  ...COMMON_DIRECTIVES,
]);

/** 128 random bits, base64: unguessable and fresh for every page request. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** On every response, pages, API and static files alike. */
export const STATIC_HEADERS: Header[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // No camera, microphone or location; the copy buttons keep clipboard writes on this origin.
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), clipboard-write=(self)",
  },
  // For browsers without CSP frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];

/** Responses carrying user data that no browser or proxy cache may keep. */
const NOT_CACHED: Header = { key: "Cache-Control", value: "no-store" };

/**
 * Paths proxy.ts does not run on, all of them route handlers answering with data: the API (Better
 * Auth included) and the share view's own API (everything below /share/<token>/). The proxy
 * matcher excludes exactly these, plus Next's static files, which get the static headers only.
 */
const NON_PAGE_SOURCES = ["/api", "/api/:path*", "/share/:token/:path+"];

/** next.config.ts `headers()`. */
export function securityHeaderRules(): HeaderRule[] {
  return [
    { source: "/:path*", headers: STATIC_HEADERS },
    ...NON_PAGE_SOURCES.map((source) => ({
      source,
      headers: [
        { key: "Content-Security-Policy", value: STATIC_CONTENT_SECURITY_POLICY },
        NOT_CACHED,
      ],
    })),
  ];
}

# Baton's image: Next's standalone output (server.js and only the files it traced, PGlite's WASM
# and the migrations among them) run by a non-root user, with the data folder as a volume.
# Build: `docker build -t baton .`; run with compose (compose.yaml, README "Run it in production").
# NODE_IMAGE lets a registry mirror, or a locally made base image, stand in for Docker Hub's.
ARG NODE_IMAGE=node:20-slim

# --- deps: the locked dependencies, cached until package-lock.json or a patch changes ---
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci's postinstall applies these (patch-package): fixes to dependencies' own defects.
COPY patches ./patches
RUN npm ci --no-audit --no-fund

# --- build: `next build` with output "standalone" (next.config.ts) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# public/ is optional in a Next app; the runner copies it either way.
RUN npx next build && mkdir -p public

# --- runner: node and the standalone folder, nothing else ---
FROM ${NODE_IMAGE} AS runner
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    BATON_DATA_DIR=/data
# The app's files stay root's (the server cannot rewrite its own code); the data folder and
# Next's cache folder are the baton user's. A named volume mounted on /data starts out with
# this ownership; a host folder bind-mounted there must be made writable by uid 1001.
RUN groupadd --system --gid 1001 baton \
 && useradd --system --uid 1001 --gid baton --home-dir /data --shell /usr/sbin/nologin baton \
 && mkdir -p /data /app/.next/cache \
 && chown baton:baton /data /app/.next/cache
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
USER baton
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (/api/health never touches the database or Redis), so a dependency's outage does
# not mark the container unhealthy; the image has no curl, node does the request.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# server.js applies pending migrations at start-up (instrumentation.ts), then serves.
CMD ["node", "server.js"]

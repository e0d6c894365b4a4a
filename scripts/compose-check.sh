#!/usr/bin/env bash
# Validates compose.yaml (both profiles) with whichever Compose the machine has: the `docker
# compose` plugin, else the standalone `docker-compose` — installed from Debian's packages when
# neither is there and apt-get can. Without any, it says so and skips. The secrets compose.yaml
# requires are given placeholders: `config` only parses, it starts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose "$@"
  else
    docker-compose "$@"
  fi
}

if ! { command -v docker >/dev/null && docker compose version >/dev/null 2>&1; } &&
  ! command -v docker-compose >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null || true
  fi
fi
if ! { command -v docker >/dev/null && docker compose version >/dev/null 2>&1; } &&
  ! command -v docker-compose >/dev/null; then
  echo "compose-check: no docker compose or docker-compose on this machine; compose.yaml not validated"
  exit 0
fi

export BETTER_AUTH_SECRET=placeholder-secret-for-config-only-0123456789
export POSTGRES_PASSWORD=placeholder
compose -f compose.yaml config -q
compose -f compose.yaml --profile replica config -q
services=$(compose -f compose.yaml --profile replica config --services | sort | tr '\n' ' ')
if [ "$services" != "app app-replica postgres redis " ]; then
  echo "compose-check: unexpected services: $services" >&2
  exit 1
fi
echo "compose-check: compose.yaml is valid ($(compose version --short 2>/dev/null || echo compose)): $services"

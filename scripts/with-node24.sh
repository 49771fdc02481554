#!/usr/bin/env bash
# Runs a command with Node >= 24 first on PATH (fetched once into a cache when the machine's
# node is older; see scripts/node24.sh). `npm test` and friends go through it.
set -euo pipefail
# shellcheck source=node24.sh
source "$(cd "$(dirname "$0")" && pwd)/node24.sh" >/dev/null
exec "$@"

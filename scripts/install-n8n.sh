#!/usr/bin/env bash
# Installs the n8n server used by `npm run dev` and the end-to-end suite into a cache outside the
# repository, once; later runs reuse it. Prints the n8n install directory on its last line.
#
# Why the special steps: a plain `npm install n8n` fails offline here. linkedom 0.18.15 needs a
# package the registry lacks (pinned to 0.18.14), and some install scripts download from the
# internet (Kafka client). So we install without scripts and rebuild only the native addons n8n
# needs to run: sqlite3 (compiled from source), isolated-vm and friends (prebuilt binaries).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
N8N_VERSION="${N8N_VERSION:-2.41.1}"
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
dir="$cache/n8n-$N8N_VERSION"
stamp="$dir/.installed"

if [ -f "$stamp" ]; then
  echo "n8n $N8N_VERSION already installed in $dir" >&2
  echo "$dir"
  exit 0
fi

# shellcheck source=node24.sh
source "$here/node24.sh"
# The machine's npm may point node-gyp at the system Node's headers; build against Node 24's.
if [ -n "${POSTAL_NODE24_DIR:-}" ]; then export npm_config_nodedir="$POSTAL_NODE24_DIR"; fi
echo "Installing n8n $N8N_VERSION into $dir (first time only: about 8 minutes)" >&2
mkdir -p "$dir"
cat > "$dir/package.json" <<JSON
{
  "name": "postal-service-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14" }
}
JSON
start=$(date +%s)
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=http 2>&1 \
  | awk -v s="$start" '/http fetch/ { n++; if (n % 250 == 0) { printf "  ... %d packages fetched (%ds)\n", n, systime()-s; fflush() } } /ERR!/ { print }' >&2)
echo "  packages installed in $(( $(date +%s) - start ))s; building native addons" >&2
(cd "$dir" && npm rebuild sqlite3 >&2)
(cd "$dir" && npm rebuild isolated-vm msgpackr-extract @parcel/watcher protobufjs >&2)
touch "$stamp"
echo "  n8n $N8N_VERSION ready after $(( $(date +%s) - start ))s" >&2
echo "$dir"

#!/usr/bin/env bash
# Installs an n8n release (N8N_VERSION, default the pinned 2.41.1) used by `npm run dev` and the
# end-to-end suites into a cache outside the repository, one folder per release, once; later runs
# reuse it without the network. Prints the n8n install directory on its last line.
#
# Why the special steps: a plain `npm install n8n` fails offline here. linkedom 0.18.15 needs a
# package the registry lacks (pinned to 0.18.14); n8n-nodes-base up to 2.0 takes xlsx 0.20.2 from
# a URL outside the registry (replaced by the same release republished there as @e965/xlsx, which
# later n8n releases use themselves); and some install scripts download from the internet (Kafka
# client). So we install without scripts and rebuild only the native addons n8n
# needs to run: sqlite3 (compiled from source), isolated-vm and friends (prebuilt binaries).
#
# Each release runs on the newest Node major its `engines` allow (24, else 22, else 20); the
# major is kept in <dir>/.node-major and the addons are built for it.
#
# The cache is trusted only while it proves itself: on every run the release's own Node loads each
# native addon and sqlite3 opens a database. A cache that fails is repaired (its addons rebuilt,
# else installed again), never used as it is.
#
# A release that does not install from the registry is not hidden: the exact npm errors go to
# <dir>/.failed and to stderr, and the script exits with status 3 (a later run tries again).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
N8N_VERSION="${N8N_VERSION:-2.41.1}"
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
dir="$cache/n8n-$N8N_VERSION"
stamp="$dir/.installed"
# `npm run` hands the project's ignore-scripts=true (.npmrc) down as npm_config_ignore_scripts to
# every npm below it, and a rebuild without scripts builds nothing and says it succeeded.
export npm_config_ignore_scripts=false
addons=(sqlite3 isolated-vm msgpackr-extract @parcel/watcher)

# The bin folder of the Node the release runs on (recorded at install time).
release_node() { bash "$here/../node/node-major.sh" "$(cat "$dir/.node-major")"; }

# The proof that the install runs: the release's own Node loads every native addon present and
# sqlite3, the database n8n starts with, answers a query. Prints one line per addon that failed,
# starting with its name.
proven() {
  [ -f "$dir/.node-major" ] && [ -f "$dir/node_modules/n8n/package.json" ] || { echo "no complete install"; return 1; }
  local node_bin
  node_bin="$(release_node)" || return 1
  (cd "$dir" && "$node_bin/node" -e '
    const fs = require("fs");
    let failed = false;
    for (const name of process.argv.slice(1)) {
      if (!fs.existsSync(`node_modules/${name}/package.json`)) continue;
      try { require(name); } catch (error) { console.log(`${name} does not load: ${error.message.split("\n")[0]}`); failed = true; }
    }
    if (failed) process.exit(1);
    const sqlite3 = require("sqlite3");
    new sqlite3.Database(":memory:").get("select 1 as one", (error, row) => {
      if (error || row?.one !== 1) { console.log(`sqlite3 does not answer: ${error?.message ?? "no row"}`); process.exit(1); }
    });' "${addons[@]}" 2>&1)
}

# Builds the native addons for the release's Node, against that Node's own headers: those named,
# else every one present.
build_addons() {
  local node_bin present=() addon wanted=("${@:-${addons[@]}}")
  node_bin="$(release_node)"
  (
    export PATH="$node_bin:$PATH"
    # The machine's npm may point node-gyp at the system Node's headers; build against the chosen one's.
    if [ -d "$node_bin/../include/node" ]; then
      npm_config_nodedir="$(cd "$node_bin/.." && pwd)"
      export npm_config_nodedir
    fi
    echo "  building native addons with $(node -v)" >&2
    for addon in "${wanted[@]}"; do [ -d "$dir/node_modules/$addon" ] && present+=("$addon"); done
    cd "$dir" && npm rebuild --ignore-scripts=false "${present[@]}" >&2
  )
}

if [ -f "$stamp" ]; then
  if problem="$(proven)"; then
    echo "n8n $N8N_VERSION already installed in $dir (its native addons load)" >&2
    echo "$dir"
    exit 0
  fi
  echo "n8n $N8N_VERSION in $dir fails its check ($problem): repairing it" >&2
  rm -f "$stamp"
  # Only the addons that failed are rebuilt (a compile is minutes each); sqlite3 when it only failed its query.
  read -ra failing <<<"$(awk '{ print $1 }' <<<"$problem" | grep -Fxf <(printf '%s\n' "${addons[@]}") | tr '\n' ' ')"
  if build_addons "${failing[@]}" && problem="$(proven)"; then
    touch "$stamp"
    echo "  repaired: its native addons load" >&2
    echo "$dir"
    exit 0
  fi
  echo "  still failing ($problem): installing it again" >&2
fi

# npm itself does not care which Node runs it; the addons are built for the release's own below.
# shellcheck source=../node/node24.sh
source "$here/../node/node24.sh"
echo "Installing n8n $N8N_VERSION into $dir (first time only: 6 to 10 minutes)" >&2
rm -rf "$dir"
mkdir -p "$dir"
cat > "$dir/package.json" <<JSON
{
  "name": "postal-service-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14", "xlsx": "npm:@e965/xlsx@0.20.2" }
}
JSON
start=$(date +%s)
set +e
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=http 2>&1 \
  | tee "$dir/install.log" \
  | awk '/http fetch/ { n++; if (n % 250 == 0) { printf "  ... %d packages fetched\n", n; fflush() } } /ERR!|npm error/ { print }' >&2)
status=${PIPESTATUS[0]}
set -e
[ -f "$dir/node_modules/n8n/package.json" ] || status=1
if [ "$status" -ne 0 ]; then
  grep -E 'npm (error|ERR!)' "$dir/install.log" > "$dir/.failed" || tail -20 "$dir/install.log" > "$dir/.failed"
  # Keep only the record: a half-installed tree is gigabytes of nothing.
  find "$dir" -mindepth 1 -maxdepth 1 ! -name .failed ! -name install.log -exec rm -rf {} +
  echo "n8n $N8N_VERSION does not install from the registry (after $(( $(date +%s) - start ))s):" >&2
  sed 's/^/  /' "$dir/.failed" >&2
  exit 3
fi
echo "  packages installed in $(( $(date +%s) - start ))s; building native addons" >&2

# The newest Node major the release declares support for.
engines="$(node -p "require('$dir/node_modules/n8n/package.json').engines?.node ?? ''")"
major=""
for candidate in 24 22 20; do
  if node -e "process.exit(require('$dir/node_modules/semver').satisfies('$candidate.99.0', process.argv[1] || '*') ? 0 : 1)" "$engines"; then
    major=$candidate; break
  fi
done
if [ -z "$major" ]; then
  echo "n8n $N8N_VERSION declares engines.node \"$engines\": none of Node 24, 22, 20 fits" > "$dir/.failed"
  cat "$dir/.failed" >&2
  exit 3
fi
echo "$major" > "$dir/.node-major"
echo "  n8n $N8N_VERSION declares Node \"$engines\": building for Node $major" >&2
build_addons
if ! problem="$(proven)"; then
  echo "n8n $N8N_VERSION installed, but it would not run: $problem" | tee "$dir/.failed" >&2
  exit 3
fi
rm -f "$dir/.failed"
touch "$stamp"
echo "  n8n $N8N_VERSION ready after $(( $(date +%s) - start ))s (its native addons load)" >&2
echo "$dir"

#!/usr/bin/env bash
# Installs the engine of each tested n8n release (scripts/engines/releases.json, or the releases given):
# the n8n-core and n8n-workflow that release's n8n package pins, and nothing of n8n's server, into
# $POSTAL_CACHE_DIR/engine-<release> (default ~/.cache/n8n-nodes-postal-service), once, all at
# once; later runs reuse them without the network. test/releases/ runs the built package through
# each one's WorkflowExecute, on the Node major the release declares (kept in <dir>/.node-major).
#
# Installed with --ignore-scripts, like scripts/dev/install-n8n.sh: n8n-workflow 2.x pulls isolated-vm,
# whose build needs Node 24 and whose install script would otherwise fail; only the `vm`
# expression engine loads it, and the runner uses the `legacy` one.
# A release is built in a folder of its own and moved into place when complete, so a reader never
# sees half an install and an install never deletes one that is ready.
# Usage: bash scripts/engines/install-engines.sh [release...]   (prints "<release> <dir>" per release)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
list="$here/releases.json"
mkdir -p "$cache"

# The pair the list gives for a release, as "core workflow".
pair_of() {
  node -e '
    const found = require(process.argv[1]).releases.find((r) => r.n8n === process.argv[2]);
    if (!found) { console.error(`${process.argv[2]} is not in ${process.argv[1]}`); process.exit(1); }
    console.log(`${found["n8n-core"]} ${found["n8n-workflow"]}`);' "$list" "$1"
}

installed() { [ -f "$cache/engine-$1/.installed" ] && [ "$(cat "$cache/engine-$1/.installed")" = "$(pair_of "$1")" ]; }

# Checks the list against what the release pins and fetches the Node it runs on; one release at a
# time, since two fetches of one Node major would share a folder. Prints the major.
prepare_one() {
  local release=$1 core workflow declared major
  read -r core workflow <<<"$(pair_of "$release")"
  # What the release itself pins: a list that drifted from it would test another engine.
  declared=$(npm view "n8n@$release" dependencies engines --json)
  node -e '
    const view = JSON.parse(process.argv[1]);
    const [core, workflow] = [view.dependencies["n8n-core"], view.dependencies["n8n-workflow"]];
    if (core !== process.argv[2] || workflow !== process.argv[3]) {
      console.error(`n8n ${process.argv[4]} pins n8n-core ${core} and n8n-workflow ${workflow}; scripts/engines/releases.json says ${process.argv[2]} and ${process.argv[3]}`);
      process.exit(1);
    }' "$declared" "$core" "$workflow" "$release"
  # The newest Node major the release declares support for, as scripts/dev/install-n8n.sh picks it.
  major=$(node -e '
    const semver = require(process.argv[2]);
    const range = JSON.parse(process.argv[1]).engines?.node ?? "*";
    const major = [24, 22, 20].find((m) => semver.satisfies(`${m}.99.0`, range));
    if (!major) { console.error(`engines.node "${range}": none of Node 24, 22, 20 fits`); process.exit(1); }
    console.log(major);' "$declared" "$here/../../node_modules/semver")
  bash "$here/../node/node-major.sh" "$major" >/dev/null
  echo "$major"
}

install_one() {
  local release=$1 major=$2 dir="$cache/engine-$1" core workflow started
  read -r core workflow <<<"$(pair_of "$release")"
  started=$(date +%s)
  echo "Installing the engine of n8n $release (n8n-core $core + n8n-workflow $workflow, Node $major) into $dir with --ignore-scripts: under a minute and 160 to 330 MB, once" >&2
  local partial="$dir.partial-$$"
  rm -rf "$partial"
  mkdir -p "$partial"
  cat > "$partial/package.json" <<JSON
{
  "name": "postal-service-engine-$release",
  "private": true,
  "dependencies": { "n8n-core": "$core", "n8n-workflow": "$workflow" }
}
JSON
  if ! (cd "$partial" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error > install.log 2>&1); then
    echo "the engine of n8n $release did not install:" >&2
    sed 's/^/  /' "$partial/install.log" >&2
    rm -rf "$partial"
    return 1
  fi
  echo "$major" > "$partial/.node-major"
  echo "$core $workflow" > "$partial/.installed"
  rm -rf "$dir"
  mv "$partial" "$dir"
  echo "  engine of n8n $release ready in $(( $(date +%s) - started ))s ($(du -sm "$dir" | cut -f1) MB)" >&2
}

if [ $# -gt 0 ]; then releases=("$@"); else
  mapfile -t releases < <(node -e 'for (const r of require(process.argv[1]).releases) console.log(r.n8n)' "$list")
fi
pids=()
for release in "${releases[@]}"; do
  if installed "$release"; then
    echo "engine of n8n $release ($(cat "$cache/engine-$release/.installed")) already in $cache/engine-$release" >&2
    continue
  fi
  major=$(prepare_one "$release")
  install_one "$release" "$major" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
[ "$status" -eq 0 ] || exit 1
for release in "${releases[@]}"; do echo "$release $cache/engine-$release"; done

#!/usr/bin/env bash
# Runs a command with Node >= 24 first on PATH (fetched once into a cache when the machine's
# node is older; see scripts/node/node24.sh). `npm test` and friends go through it.
# On a fresh clone (or after a pull that changed the lock file) it runs `npm ci` first, so that
# `npm run dev` and `npm test` work as the very first command; after CI's own `npm ci` it does nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=node24.sh
source "$here/node24.sh" >/dev/null

# Every dev dependency present at the version the lock file pins.
dependencies_current() {
  (cd "$here/../.." && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages ?? {};
    for (const name of Object.keys(require("./package.json").devDependencies ?? {})) {
      const at = `node_modules/${name}`;
      let version;
      try { version = JSON.parse(fs.readFileSync(`${at}/package.json`, "utf8")).version; } catch { process.exit(1); }
      if (lock[at] && lock[at].version !== version) process.exit(1);
    }')
}

if ! dependencies_current; then
  if [ -L "$here/../../node_modules" ]; then
    # A shared node_modules (a linked worktree) belongs to its owner: never wipe it from here.
    echo "with-node24.sh: node_modules (a link) does not match package-lock.json; run npm ci where it lives" >&2
  else
    echo "with-node24.sh: installing the dependencies (npm ci), once" >&2
    (cd "$here/../.." && npm ci --no-audit --no-fund >&2)
  fi
fi
exec "$@"

#!/usr/bin/env bash
# Makes a Node 24 toolchain available without touching the system Node.
# n8n 2.x (and the engine our tests run) needs Node >= 24; many machines still have 20.
# Usage:  source scripts/node/node24.sh      (puts Node 24 first on PATH in this shell)
# A machine's own Node 24 or newer is used as it is; otherwise scripts/node/node-major.sh fetches the
# registry's build for this machine once into $POSTAL_CACHE_DIR (default
# ~/.cache/n8n-nodes-postal-service), outside the repository.
# It leaves the caller's shell options (errexit, nounset) as they were.

postal_node24_main() {
  local here current
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$current" -ge 24 ] 2>/dev/null; then
    POSTAL_NODE24_BIN="$(dirname "$(command -v node)")"
    return 0
  fi
  POSTAL_NODE24_BIN="$(bash "$here/node-major.sh" 24)" || return 1
}

postal_node24_main || return 1
export PATH="$POSTAL_NODE24_BIN:$PATH"

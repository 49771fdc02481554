#!/usr/bin/env bash
# Makes a Node 24 toolchain available without touching the system Node.
# n8n 2.x (and the engine our tests run) needs Node >= 24; many machines still have 20.
# Usage:  source scripts/node/node24.sh      (puts Node 24 first on PATH in this shell)
#         scripts/node/node24.sh --print     (prints the bin directory to add to PATH)
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
    POSTAL_NODE24_DIR=""
    return 0
  fi
  POSTAL_NODE24_BIN="$(bash "$here/node-major.sh" 24)" || return 1
  POSTAL_NODE24_DIR="$(dirname "$POSTAL_NODE24_BIN")"
}

postal_node24_main || { [ "${BASH_SOURCE[0]}" != "$0" ] && return 1 || exit 1; }

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: put Node 24 first. POSTAL_NODE24_DIR holds its headers, for native addon builds.
  export PATH="$POSTAL_NODE24_BIN:$PATH"
  export POSTAL_NODE24_DIR
else
  if [ "${1:-}" = "--print" ]; then echo "$POSTAL_NODE24_BIN"; else
    echo "Node 24 is at $POSTAL_NODE24_BIN/node ($("$POSTAL_NODE24_BIN/node" -v))"
    echo "Use it in this shell with:  source scripts/node/node24.sh"
  fi
fi

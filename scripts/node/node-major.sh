#!/usr/bin/env bash
# Prints the bin directory of a Node.js of the given major version: the machine's own when it is
# that major, else the npm registry's build for this machine (node-<os>-<arch>@<major>), fetched
# once into the cache. The one place the project fetches a Node; scripts/node/node24.sh and
# scripts/dev/install-n8n.sh (n8n 1.x releases declare older Node ranges than 2.x) come through here.
# Usage:  scripts/node/node-major.sh 22        (prints the bin directory; the headers are one level up)
set -euo pipefail
major="${1:?usage: node-major.sh <major>}"
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
system_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$system_major" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
yourself="install Node $major yourself (nodejs.org, nvm or Homebrew), put it first on PATH, and run the command again"
dir="$cache/node$major"
if [ ! -x "$dir/package/bin/node" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x64 ;;
    Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
    Darwin-x86_64) platform=darwin-x64 ;;
    Darwin-arm64) platform=darwin-arm64 ;;
    MINGW* | MSYS* | CYGWIN*)
      echo "node-major.sh: on Windows, run the project's commands inside WSL (Ubuntu), where they work as on Linux" >&2
      exit 1 ;;
    *)
      echo "node-major.sh: no Node build is fetched for $(uname -s) $(uname -m): $yourself" >&2
      exit 1 ;;
  esac
  echo "node-major.sh: fetching Node $major ($platform) from the npm registry into $dir, once" >&2
  tmp="$(mktemp -d)"
  if ! (cd "$tmp" && npm pack --silent "node-$platform@$major" >/dev/null 2>"$tmp/error.log"); then
    echo "node-major.sh: the npm registry has no Node $major for $platform (npm pack node-$platform@$major failed): $yourself" >&2
    rm -rf "$tmp"
    exit 1
  fi
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial"
  tar xzf "$tmp"/node-"$platform"-*.tgz -C "$dir.partial"
  rm -rf "$tmp" "$dir"
  mv "$dir.partial" "$dir"
fi
echo "$dir/package/bin"

#!/usr/bin/env bash
# Runs the smoke subset of the end-to-end suite (npm run test:e2e:smoke) on each n8n release given,
# installing each into its cache folder first, and prints one table row per release:
#   release | installs | loads | works | what fails
# A release that does not install from the registry gets npm's first error in the last column.
# Usage: bash scripts/engines/try-n8n-releases.sh 1.123.81 2.0.0 ...
# Logs: $POSTAL_CACHE_DIR/releases/<release>.log (default ~/.cache/n8n-nodes-postal-service).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
cache="${POSTAL_CACHE_DIR:-$HOME/.cache/n8n-nodes-postal-service}"
mkdir -p "$cache/releases"
strip() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }
rows=()
for release in "$@"; do
  log="$cache/releases/$release.log"
  started=$(date +%s)
  if ! N8N_VERSION="$release" bash scripts/dev/install-n8n.sh > "$log" 2>&1; then
    error=$(grep -m1 -E 'npm (error|ERR!) (code|404|notarget|network)|declares engines' "$cache/n8n-$release/.failed" 2>/dev/null || tail -1 "$log")
    rows+=("| $release | no | – | – | ${error//|/\\|} | $(( $(date +%s) - started )) |")
    continue
  fi
  N8N_VERSION="$release" npm run test:e2e:smoke >> "$log" 2>&1
  loads=no; works=no
  # Every reader below reads its whole input: under pipefail, one that stops early (head, grep -q)
  # would kill the writer with SIGPIPE at random.
  plain=$(strip "$log")
  if grep -Ec '✓ .*lists both nodes, the tool variant' <<<"$plain" >/dev/null; then loads=yes; fi
  if grep -Ec '^ +Tests +[0-9]+ passed' <<<"$plain" >/dev/null; then works=yes; fi
  # Each failed case (the first 8), with the first line of its error.
  failures=$(awk '/ FAIL .*> /{sub(/.*> /, ""); name=$0; getline; if (++n <= 8) print name ": " $0}' <<<"$plain" | paste -sd ';' -)
  if [ "$loads" = no ] && [ -z "$failures" ]; then
    failures=$(awk '/could not load the package|Error:/ && !found { found = 1; print substr($0, 1, 200) }' <<<"$plain")
  fi
  rows+=("| $release | yes | $loads | $works | ${failures:-} | $(( $(date +%s) - started )) |")
done
echo
echo "| release | installs | loads | works | what fails | seconds |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"

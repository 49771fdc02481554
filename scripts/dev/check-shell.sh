#!/usr/bin/env bash
# Checks the repository's shell scripts (.ci/run and scripts/*/*.sh): shellcheck, when it is
# installed (.ci/run installs it from Debian's packages), and a rule shellcheck lacks: under
# `pipefail`, no pipe may end in a reader that can stop reading early (head, grep -q/-m/-l,
# sed …q, awk … exit). The writer then dies of SIGPIPE at random, and the pipeline fails on a
# machine where the timing differs. Read the whole input instead (grep -c, sed -n 1p, a file).
# Usage: bash scripts/dev/check-shell.sh [FILE...]   (default .ci/run and scripts/*/*.sh; exit 1 on any finding)
set -euo pipefail
if [ $# -gt 0 ]; then scripts=("$@"); else
  cd "$(dirname "$0")/../.."
  scripts=(.ci/run scripts/*/*.sh)
fi
status=0

if command -v shellcheck >/dev/null; then
  shellcheck --external-sources --severity=warning "${scripts[@]}" || status=1
else
  echo "check-shell: shellcheck is not installed (apt-get install shellcheck); only the pipe rule was checked" >&2
fi

# A reader that may close the pipe before the writer is done.
early='\|[[:space:]]*(head|grep[[:space:]]+([^|]*[[:space:]])?(-[a-zA-Z]*[qml][a-zA-Z0-9]*|--quiet|--silent|--max-count[= ][0-9]+|--files-with-matches)([[:space:]]|$)|sed[[:space:]][^|]*[0-9/$]q|awk[[:space:]][^|]*[^a-z_]exit([^a-z_]|$))'
for script in "${scripts[@]}"; do
  grep -Eq '^[^#]*(set[[:space:]]+-[a-z]*o[[:space:]]+pipefail|set[[:space:]]+-o[[:space:]]+pipefail)' "$script" || continue
  found=$(grep -nE "$early" "$script" | grep -vE '^[0-9]+:[[:space:]]*#' || true)
  if [ -n "$found" ]; then
    echo "check-shell: $script sets pipefail and pipes into a reader that may stop early (SIGPIPE kills the writer at random):" >&2
    sed 's/^/  /' <<<"$found" >&2
    status=1
  fi
done

[ "$status" -eq 0 ] && echo "check-shell: ${#scripts[@]} scripts checked, nothing found"
exit "$status"

#!/usr/bin/env bash
# Prints CHANGELOG.md's section for one version, without its heading line: what the release workflow
# (.github/workflows/release.yml) puts in the GitHub release's notes.
#
#   Scripts/release-notes.sh VERSION      e.g. Scripts/release-notes.sh 1.0.0 (a leading v is dropped)
#
# A section starts with a line `## [VERSION] - YYYY-MM-DD` and runs until the next `## [` line. Exits 2
# with one line on stderr when CHANGELOG.md has no such section (or it is empty).
set -euo pipefail

[[ $# -eq 1 && -n "$1" ]] || { echo "usage: release-notes.sh VERSION" >&2; exit 2; }
version=${1#v}
changelog="${VCLINT_CHANGELOG:-$(cd "$(dirname "$0")/.." && pwd)/CHANGELOG.md}"
[[ -f "$changelog" ]] || { echo "release-notes.sh: no $changelog" >&2; exit 2; }

# awk prints the section's lines (blank lines at either end left out) and exits 1 when it found none.
notes=$(awk -v heading="## [$version] - " '
    index($0, "## [") == 1 { if (inside) exit; if (index($0, heading) == 1 && $0 ~ /- [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/) { inside = 1; found = 1; next } }
    inside { if ($0 ~ /^[[:space:]]*$/) { blank++ } else { if (printed) for (; blank > 0; blank--) print ""; blank = 0; print; printed = 1 } }
    END { exit found ? 0 : 1 }
' "$changelog") || { echo "release-notes.sh: CHANGELOG.md has no section ## [$version] - YYYY-MM-DD" >&2; exit 2; }
[[ -n "$notes" ]] || { echo "release-notes.sh: CHANGELOG.md's section for $version is empty" >&2; exit 2; }
printf '%s\n' "$notes"

#!/usr/bin/env bash
# Production lines as issue 39 counts them: .ts under apps/, shared/ and scripts/, word tables
# (apps/worker/src/sentiment/tables/, and the two table files' names from before it existed) and
# vendored files left out. Also split into the files that
# exist only for the features of issues 36-38 and 40 (alerts, windows and mindshare, the credit
# pace, the miss ceiling, forced refreshes, the trader lexicon) and the rest. Run from the root.
#
# The baseline is counted by the same filter at the baseline's commit (argument 1, default
# 9f2f9e2, issue 39's filed figure), read from git, never a figure typed in: a filter changed since
# would otherwise compare two definitions. Word lists that then sat inside logic modules, since
# moved into the left-out tables, are left out of the baseline too (by their lines, see below).
set -euo pipefail
base="${1:-9f2f9e2}"
filter() { grep -E '\.ts$' | grep -vE 'sentiment/tables/|market-phrases|crypto-lexicon|vendor'; }
features() { grep -E '/alerts/|alert-tools|mindshare|trending-windows|index-sim/src/windows|credit-pace|miss-ceiling|forced-refresh|trader-lexicon' || true; }
# The left-out tables' lines (trimmed, longer than a bracket): at the baseline, such a line inside a
# counted file is a word list that has since moved into a table, and is left out there too.
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
git ls-files 'apps/*' 'shared/*' | grep -E '\.ts$' | grep -E 'sentiment/tables/|market-phrases|crypto-lexicon' | xargs cat |
  sed -E 's/^[[:space:]]+|[[:space:]]+$//g' | awk 'length > 3' | sort -u >"$tables"
# Lines of the listed files: in the working tree, or at commit $2 (less the tables' lines).
lines() {
  local files="$1" commit="${2:-}"
  [ -n "$files" ] || { echo 0; return; }
  if [ -z "$commit" ]; then xargs cat <<<"$files" | wc -l; else
    while read -r file; do git show "$commit:$file"; done <<<"$files" |
      awk -v tables="$tables" 'BEGIN { while ((getline line < tables) > 0) table[line] = 1 }
        { key = $0; gsub(/^[[:space:]]+|[[:space:]]+$/, "", key); if (!(key in table)) n++ } END { print n + 0 }'
  fi
}
report() {
  local label="$1" all="$2" commit="${3:-}"
  local featured rest
  featured=$(features <<<"$all")
  rest=$(grep -vxF -f <(echo "$featured") <<<"$all" || true)
  local total
  total=$(lines "$all" "$commit")
  echo "$label: production $total  feature-only files $(lines "$featured" "$commit")  rest $(lines "$rest" "$commit")"
  eval "$4=$total"
}
report "now ($(git rev-parse --short HEAD), working tree)" "$(git ls-files 'apps/*' 'shared/*' 'scripts/*' | filter)" "" now
report "baseline ($(git rev-parse --short "$base"))" "$(git ls-tree -r --name-only "$base" -- apps shared scripts | filter)" "$base" then
awk -v now="$now" -v then="$then" 'BEGIN { printf "growth since the baseline, same filter: %+d lines (%+.1f %%)\n", now - then, 100 * (now - then) / then }'

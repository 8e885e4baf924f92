#!/usr/bin/env bash
# Production lines as issue 39 counts them: .ts under apps/, shared/ and scripts/, word tables
# (apps/worker/src/sentiment/tables/, and the two table files' names from before it existed) and
# vendored files left out. Also split into the files that
# exist only for the features of issues 36-38 and 40 (alerts, windows and mindshare, the credit
# pace, the miss ceiling, forced refreshes, the trader lexicon) and the rest. Run from the root.
set -euo pipefail
all=$(git ls-files 'apps/*.ts' 'shared/*.ts' 'scripts/*.ts' | grep -vE 'sentiment/tables/|market-phrases|crypto-lexicon|vendor')
features=$(grep -E '/alerts/|alert-tools|mindshare|trending-windows|index-sim/src/windows|credit-pace|miss-ceiling|forced-refresh|trader-lexicon' <<<"$all")
rest=$(grep -vxF -f <(echo "$features") <<<"$all")
lines() { xargs cat <<<"$1" | wc -l; }
echo "production $(lines "$all")  feature-only files $(lines "$features")  rest $(lines "$rest")"

#!/usr/bin/env bash
# Checks every certificate that `snakesat solve --proof DIR` (or `snakesat bench
# --proof DIR`) wrote under DIR: each manifest.json lists its claims, and each
# claim's DRAT proof is checked against its CNF by `rate`, a DRAT checker
# independent of CaDiCaL (`cargo install rate --locked`).
# Prints one line per claim and a total; exits 0 when every proof is VERIFIED,
# 1 when one is not (or a claim has no complete proof), 2 on bad usage.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 DIR   (a folder written by snakesat solve/bench --proof)" >&2
  exit 2
fi
if ! command -v rate >/dev/null 2>&1; then
  echo "error: the DRAT checker 'rate' is not installed (cargo install rate --locked)" >&2
  exit 2
fi
mapfile -t manifests < <(find "$1" -name manifest.json | sort)
if [ ${#manifests[@]} -eq 0 ]; then
  echo "error: no manifest.json under $1" >&2
  exit 2
fi

ms() { echo $(($(date +%s%N) / 1000000)); }
checked=0
failed=0
started=$(ms)
for manifest in "${manifests[@]}"; do
  dir=$(dirname "$manifest")
  # snakesat writes one "key": value per line; its file names hold no quotes or tabs.
  while IFS=$'\t' read -r cnf proof complete; do
    [ -n "$cnf" ] || continue
    if [ "$complete" != true ]; then
      echo "INCOMPLETE $dir/$cnf (the re-solve reached its time limit)"
      failed=$((failed + 1))
      continue
    fi
    t0=$(ms)
    verdict=$(rate "$dir/$cnf" "$dir/$proof" 2>&1 | grep '^s ' | tail -n 1)
    checked=$((checked + 1))
    if [ "$verdict" = "s VERIFIED" ]; then
      echo "VERIFIED   $dir/$cnf ($(($(ms) - t0)) ms)"
    else
      echo "FAILED     $dir/$cnf (${verdict:-no verdict})"
      failed=$((failed + 1))
    fi
  done < <(paste <(sed -n 's/^ *"cnf": "\(.*\)",$/\1/p' "$manifest") \
                 <(sed -n 's/^ *"proof": "\(.*\)",$/\1/p' "$manifest") \
                 <(sed -n 's/^ *"refuted": \(true\|false\),$/\1/p' "$manifest"))
done
echo "checked $checked proof(s) of ${#manifests[@]} manifest(s) in $(($(ms) - started)) ms: $failed failed"
[ "$failed" -eq 0 ]

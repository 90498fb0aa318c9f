#!/usr/bin/env bash
# Checks every certificate that `snakesat solve --proof DIR` (or `snakesat bench
# --proof DIR`) wrote under DIR: each manifest.json lists its claims, and each
# claim's DRAT proof is checked against its CNF by `rate`, a DRAT checker
# independent of CaDiCaL (`cargo install rate --locked`). A family folder of
# `snakesat generate --proof` (or its shards) is checked the same way: each
# index's `proof` rows name a proof, beside the CNF of the same name.
# Prints one line per claim and a total; exits 0 when every proof is VERIFIED,
# 1 when one is not (or a claim has no complete proof), 2 on bad usage.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 DIR   (a folder written by snakesat solve/bench/generate --proof)" >&2
  exit 2
fi
if ! command -v rate >/dev/null 2>&1; then
  echo "error: the DRAT checker 'rate' is not installed (cargo install rate --locked)" >&2
  exit 2
fi
mapfile -t manifests < <(find "$1" -name manifest.json | sort)
mapfile -t indexes < <(find "$1" \( -name index.jsonl -o -name 'index-*-of-*.jsonl' \) | sort)
if [ ${#manifests[@]} -eq 0 ] && [ ${#indexes[@]} -eq 0 ]; then
  echo "error: no manifest.json or family index.jsonl under $1" >&2
  exit 2
fi

ms() { echo $(($(date +%s%N) / 1000000)); }
checked=0
failed=0
started=$(ms)
# Checks the proof $2 of the CNF $1 with rate; $3 is false for a proof that
# its re-solve did not complete.
check() {
  if [ "$3" != true ]; then
    echo "INCOMPLETE $1 (the re-solve reached its time limit)"
    failed=$((failed + 1))
    return
  fi
  local t0 verdict
  t0=$(ms)
  verdict=$(rate "$1" "$2" 2>&1 | grep '^s ' | tail -n 1)
  checked=$((checked + 1))
  if [ "$verdict" = "s VERIFIED" ]; then
    echo "VERIFIED   $1 ($(($(ms) - t0)) ms)"
  else
    echo "FAILED     $1 (${verdict:-no verdict})"
    failed=$((failed + 1))
  fi
}
for manifest in "${manifests[@]}"; do
  dir=$(dirname "$manifest")
  # snakesat writes one "key": value per line; its file names hold no quotes or tabs.
  while IFS=$'\t' read -r cnf proof complete; do
    [ -n "$cnf" ] || continue
    check "$dir/$cnf" "$dir/$proof" "$complete"
  done < <(paste <(sed -n 's/^ *"cnf": "\(.*\)",$/\1/p' "$manifest") \
                 <(sed -n 's/^ *"proof": "\(.*\)",$/\1/p' "$manifest") \
                 <(sed -n 's/^ *"refuted": \(true\|false\),$/\1/p' "$manifest"))
done
for index in "${indexes[@]}"; do
  dir=$(dirname "$index")
  # One row a line, "file" then "kind" first; a proof is listed only once complete.
  while read -r proof; do
    check "$dir/${proof%.drat}.cnf" "$dir/$proof" true
  done < <(sed -n 's/^{"id":"[^"]*","file":"\([^"]*\.drat\)","kind":"proof",.*/\1/p' "$index")
done
echo "checked $checked proof(s) of ${#manifests[@]} manifest(s) and ${#indexes[@]} family index(es) in $(($(ms) - started)) ms: $failed failed"
[ "$failed" -eq 0 ]

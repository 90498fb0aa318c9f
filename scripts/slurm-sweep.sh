#!/usr/bin/env bash
# Runs a snakesat sweep as a SLURM array job and merges the shards.
#
#   scripts/slurm-sweep.sh -k K -o OUT [-p PARTITION] -- generate ARGS...
#   scripts/slurm-sweep.sh -k K -o OUT [-p PARTITION] -- bench game ARGS...
#   scripts/slurm-sweep.sh -k K -o OUT [-p PARTITION] -- bench DIR... ARGS...
#
# Submits `sbatch --array=0-(K-1) --wait`; array task T runs the command with
# `--shard (T+1)/K` (snakesat's shards are 1-based, SLURM's task ids 0-based)
# and writes into OUT/shards/ (OUT must be on a file system every node sees).
# When every task has finished, `snakesat merge` joins the shards:
#   generate   -> OUT/family/ holds the family (index.csv, index.jsonl, summary.json, ...)
#   bench ...  -> OUT/results.csv
# A task's answer (exit 0, or 1: a proven "no plan" or a lost game) is a
# success, and so is a limit reached (3: an instance left unknown at its time
# limit) when the task wrote its whole table; bad input (2), or 3 without a
# table, fails the task and the sweep. When every task finished but some hit
# a limit, the shards are merged (their unknown rows included) and the sweep
# exits 3. OUT must not hold shards of an earlier sweep (checked before
# anything is submitted). The binary is $SNAKESAT (default: `snakesat` on
# the PATH).
set -euo pipefail

k=""
out=""
partition=""
while [ $# -gt 0 ]; do
  case "$1" in
    -k) k="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -p) partition="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "error: unknown option $1 (usage: $0 -k K -o OUT [-p PARTITION] -- COMMAND ARGS...)" >&2; exit 2 ;;
  esac
done
if ! [[ "$k" =~ ^[1-9][0-9]*$ ]] || [ -z "$out" ] || [ $# -eq 0 ]; then
  echo "error: usage: $0 -k K -o OUT [-p PARTITION] -- COMMAND ARGS..." >&2
  exit 2
fi
snakesat="${SNAKESAT:-snakesat}"
snakesat="$(command -v "$snakesat" || true)"
if [ -z "$snakesat" ]; then
  echo "error: no snakesat binary (set SNAKESAT)" >&2
  exit 2
fi

case "$1" in
  generate) kind=generate ;;
  bench) kind=bench ;;
  *) echo "error: the sweep runs generate or bench, not $1" >&2; exit 2 ;;
esac

# An earlier sweep's shards would be refused by merge only after the whole
# array had run.
for old in "$out/shards" "$out/family"; do
  if [ -d "$old" ] && [ -n "$(ls -A "$old")" ]; then
    echo "error: $old is not empty (an earlier sweep?): give the sweep a new OUT" >&2
    exit 2
  fi
done
if [ -e "$out/results.csv" ]; then
  echo "error: $out/results.csv exists (an earlier sweep?): give the sweep a new OUT" >&2
  exit 2
fi
# Without SLURM nothing is submitted, and no folder is left behind.
if ! command -v sbatch >/dev/null 2>&1; then
  echo "error: sbatch not found: the sweep needs a SLURM cluster (run the command without the sweep, or with --shard I/K on each machine)" >&2
  exit 2
fi
mkdir -p "$out/shards" "$out/logs"
out="$(cd "$out" && pwd)"
rm -f "$out"/logs/limit-*
job="$out/logs/job.sh"
{
  echo '#!/usr/bin/env bash'
  echo 'set -u'
  echo "shard=\"\$((SLURM_ARRAY_TASK_ID + 1))/$k\""
  printf 'cmd=(%q' "$snakesat"
  printf ' %q' "$@"
  echo ')'
  echo "task=\"\$((SLURM_ARRAY_TASK_ID + 1))\""
  if [ "$kind" = generate ]; then
    printf 'cmd+=(--shard "$shard" -o %q)\n' "$out/shards"
    printf 'table=%q/summary-"$task"-of-%q.json\n' "$out/shards" "$k"
  else
    printf 'table=%q/shard-"$task".csv\n' "$out/shards"
    echo 'cmd+=(--shard "$shard" --csv-out "$table")'
  fi
  echo '"${cmd[@]}"'
  echo 'code=$?'
  echo '# An answer, SAT or UNSAT (won or lost), is a successful task; so is a'
  echo '# limit reached (3) once the whole table is written (noted for the merge).'
  echo 'if [ "$code" -le 1 ]; then exit 0; fi'
  printf 'if [ "$code" -eq 3 ] && [ -s "$table" ]; then touch %q/limit-"$task"; exit 0; fi\n' "$out/logs"
  echo 'exit "$code"'
} >"$job"
chmod +x "$job"

args=(--array="0-$((k - 1))" --wait --job-name=snakesat-sweep -o "$out/logs/task-%a.txt")
if [ -n "$partition" ]; then args+=(-p "$partition"); fi
if ! sbatch "${args[@]}" "$job"; then
  echo "error: the array job failed; see $out/logs/" >&2
  exit 3
fi

if [ "$kind" = generate ]; then
  "$snakesat" merge -o "$out/family" "$out/shards"
else
  shards=()
  for i in $(seq 1 "$k"); do shards+=("$out/shards/shard-$i.csv"); done
  "$snakesat" merge -o "$out/results.csv" "${shards[@]}"
fi
limits=("$out"/logs/limit-*)
if [ -e "${limits[0]}" ]; then
  echo "note: ${#limits[@]} of $k tasks reached a limit (exit 3): their unknown rows are in the merged result" >&2
  exit 3
fi

#!/bin/sh
# LAPKT's BFWS (pip install lapkt clingo) on every problem of a folder of IPC-2018
# snake problems, for the README's side-by-side table (not run in CI).
#
#   scripts/bfws.sh benchmarks/ipc2018-snake/satisficing [SECONDS] [PLANS_DIR]
#
# Prints `instance,plan_length,seconds` (plan_length empty without a plan
# within SECONDS, default 60); keeps the plans in PLANS_DIR (default
# bfws-plans). Check them with `snakesat check PROBLEM PLAN`.
set -eu
dir=$(realpath "$1")
limit=${2:-60}
mkdir -p "${3:-bfws-plans}"
plans=$(realpath "${3:-bfws-plans}")
domain=$(dirname "$dir")/domain.pddl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "instance,plan_length,seconds"
for problem in "$dir"/instance-*.pddl; do
    name=$(basename "$problem" .pddl)
    plan="$plans/$(basename "$dir")-$name.plan"
    rm -f "$plan"
    start=$(date +%s.%N)
    # LAPKT writes its logs into the working directory; its grounder needs clingo
    # (pip install clingo).
    (cd "$work" && timeout "$limit" lapkt_cmd.py BFWS -d "$domain" -p "$problem" \
        --plan_file "$plan" >/dev/null 2>&1) || true
    end=$(date +%s.%N)
    length=""
    if [ -s "$plan" ]; then
        length=$(grep -c '^(' "$plan" || true)
    fi
    echo "$name,$length,$(echo "$end - $start" | bc)"
done

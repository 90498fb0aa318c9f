#!/usr/bin/env bash
# A real SLURM sweep on a single-node cluster on localhost (CI only, as root):
# starts munge (unless it already answers) and slurmctld + slurmd with a
# private configuration and ports, runs scripts/slurm-sweep.sh as a 4-task
# array job, and checks the merged family against a single-machine run of the
# same command: identical files, and identical index and summary once the
# timing column (solve_seconds, the index's last) is removed. Stops the
# daemons it started, by process id.
#
#   tests/slurm/run.sh [SNAKESAT_BINARY]      (default target/release/snakesat)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(realpath "${1:-target/release/snakesat}")"
work="$(mktemp -d /tmp/snakesat-slurm.XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  # The daemons save their state as they stop: wait for them (up to 20 s).
  for pid in "${pids[@]}"; do
    for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$work" || true
}
trap cleanup EXIT

host="$(hostname -s)"
cpus="$(nproc)"

# munge: the key, its directories, the daemon.
if ! (munge -n | unmunge) >/dev/null 2>&1; then
  mkdir -p /etc/munge /var/log/munge /var/lib/munge /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown -R munge:munge /etc/munge /var/log/munge /var/lib/munge /run/munge
  chmod 400 /etc/munge/munge.key
  munged --force
  pids+=("$(cat /run/munge/munged.pid)")
  (munge -n | unmunge) | grep -q 'STATUS: *Success'
fi

# SLURM: a private configuration, state and ports.
mkdir -p "$work/spool/ctld" "$work/spool/d"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=snakesat-ci
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmUser=root
SlurmdUser=root
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$work/spool/ctld
SlurmdSpoolDir=$work/spool/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 60); do
  sinfo -h -o '%t' 2>/dev/null | grep -qx idle && break
  sleep 1
done
sinfo -h -o '%t' | grep -qx idle || { echo "error: the node is not idle"; cat "$work"/*.log; exit 1; }

# The sweep, on the cluster and on this machine.
args=(generate --size 3..4 --apples 1..3 --length 1..2 --count 24 --seed 5)
SNAKESAT="$bin" scripts/slurm-sweep.sh -k 4 -o "$work/cluster" -- "${args[@]}"
"$bin" "${args[@]}" -o "$work/single"

for i in 0 1 2 3; do
  grep -q . "$work/cluster/logs/task-$i.txt" || { echo "error: array task $i left no log"; exit 1; }
done
strip() { sed 's/,[^,]*$//' "$1"; }
diff <(strip "$work/single/index.csv") <(strip "$work/cluster/family/index.csv")
diff "$work/single/summary.json" "$work/cluster/family/summary.json"
test "$(wc -l <"$work/single/index.csv")" -gt 24
count=0
for f in "$work"/single/*.cnf "$work"/single/i*.json; do
  cmp "$f" "$work/cluster/family/$(basename "$f")"
  count=$((count + 1))
done
echo "slurm sweep: 4 array tasks merged; $count files and the index equal the single-machine run"

#!/usr/bin/env bash
# The cluster path on a real Slurm (issue 19): a one-node cluster on this machine (munged,
# slurmctld and slurmd on loopback, configured in a scratch folder), docs/cluster/slurm-array.sh
# submitted over a generated corpus as an array of 4 tasks with the dependent merge job, one task
# requeued midway (`scontrol requeue`: killed while running, then run again, resuming from its
# store), and the merged store's exports compared byte for byte with a single-process run.
#
#   bash scripts/slurm-check.sh [RUNS]        default 400 task runs (2,000 units)
#
# Installs slurm-wlm and munge from Debian when missing (as root, or with sudo). Exits 0 only if
# every export is identical; prints the wall times. Leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-400}
tasks=4

need=()
for package in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  echo "slurm-check: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# ATK_CLI: a release build of activetask to run (CI passes the one it built in the benchmark
# package, whose release modules the gate had just compiled); otherwise this builds it.
if [ -n "${ATK_CLI:-}" ]; then
  bin=$(cd "$(dirname "$ATK_CLI")" && pwd)
  [ -x "$bin/activetask" ] || { echo "slurm-check: no activetask in $bin" >&2; exit 2; }
else
  swift build -c release --traits FFmpeg --product activetask >/dev/null
  bin=$(swift build -c release --traits FFmpeg --show-bin-path)
  python3 scripts/link-static.py .build "$bin/activetask" >/dev/null
fi
export PATH="$bin:$PATH"

work=$(mktemp -d /tmp/slurm-check.XXXXXX)
pids=()
cleanup() {
  status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  # The daemons are not this shell's children (they fork away): wait up to 10 s for each to
  # end, so slurmctld's last state save is not written while the folder is being removed.
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  wait 2>/dev/null || true
  if [ $status -ne 0 ]; then
    echo "slurm-check: failed; logs in $work (slurmctld.log, slurmd.log, job-*.out)" >&2
  else
    for _ in 1 2 3; do rm -rf "$work" 2>/dev/null && break; sleep 1; done
  fi
}
trap cleanup EXIT

# --- munge: a key of our own, its socket in the scratch folder ------------------------------
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/out"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"
pids+=("$(cat "$work/munge/munged.pid")")

# --- slurm.conf: this host as the one node, loopback ports chosen free ----------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) - 1024 ))
cat >"$work/slurm.conf" <<EOF
ClusterName=activetask-check
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket,cred_expire=10
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -i
slurmd
sleep 1
pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE "^idle" && break
  sleep 1
done
sinfo -h -o %T | grep -qE "^idle" || { echo "slurm-check: the node did not come up" >&2; exit 1; }
echo "slurm-check: one-node cluster up ($node, $cpus CPUs, slurmctld on 127.0.0.1:$port)"

# --- the corpus and the single-process reference --------------------------------------------
corpus="$work/corpus"
activetask generate-corpus --runs "$runs" --out "$corpus" >/dev/null
start=$(date +%s.%N)
activetask batch "$corpus" --db "$work/single.sqlite" >/dev/null
single=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")

# --- the array, the merge, and one task requeued midway --------------------------------------
start=$(date +%s.%N)
workers=$(sbatch --parsable --array=0-$((tasks - 1)) --cpus-per-task=1 --mem=2G -o "$work/out/job-%A_%a.out" \
  docs/cluster/slurm-array.sh "$corpus" "$work/cluster")
merge=$(sbatch --parsable --dependency=afterok:"$workers" -o "$work/out/job-merge.out" --wrap \
  "activetask batch merge --db $work/cluster/results.sqlite $work/cluster/shards/results-*.sqlite")
victim="${workers}_1"
# Midway: once task 1 has committed results (its store exists and holds rows), kill and requeue it.
# A task commits every 64 results or 2 s, so the window between its first commit and its end is
# short: polled every 0.1 s, and the loop ends early when the task is gone.
for _ in $(seq 3000); do
  rows=$(python3 -c "
import sqlite3, sys
try: print(sqlite3.connect('file:$work/cluster/shards/results-1.sqlite?mode=ro', uri=True).execute('SELECT COUNT(*) FROM results').fetchone()[0])
except Exception: print(0)" 2>/dev/null)
  state=$(squeue -h -j "$victim" -o %T)
  [ "$rows" -gt 0 ] || [ -z "$state" ] && break
  sleep 0.1
done
state=$(squeue -h -j "$victim" -o %T)
[ "$state" = "RUNNING" ] || { echo "slurm-check: task 1 is $state, not running, when it should be requeued" >&2; exit 1; }
scontrol requeue "$victim"   # eligible again after cred_expire (10 s, AuthInfo above)
echo "slurm-check: requeued task $victim while running, with $rows results committed"
while squeue -h -j "$workers,$merge" 2>/dev/null | grep -q .; do sleep 1; done
cluster=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
grep -q "merged" "$work/out/job-merge.out" 2>/dev/null || [ -s "$work/cluster/results.sqlite" ] \
  || { echo "slurm-check: the merge job did not run (dependency on the array not satisfied?)" >&2; exit 1; }
restarts=$(scontrol show job "$victim" 2>/dev/null | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')
[ "${restarts:-0}" -ge 1 ] || { echo "slurm-check: task $victim was not restarted" >&2; exit 1; }

# --- byte-for-byte comparison ----------------------------------------------------------------
different=0
compare() {
  local name=$1; shift
  activetask batch export --db "$work/single.sqlite" "$@" --out "$work/single-$name"
  activetask batch export --db "$work/cluster/results.sqlite" "$@" --out "$work/cluster-$name"
  if cmp -s "$work/single-$name" "$work/cluster-$name"; then
    echo "  $name: identical ($(wc -l <"$work/single-$name") lines)"
  else
    echo "  $name: DIFFERENT"; different=1
  fi
}
echo "slurm-check: exports of the merged store vs the single-process run"
compare long.csv --csv
for analyzer in $(sqlite3 "$work/single.sqlite" "SELECT DISTINCT analyzer FROM results WHERE analyzer != 'read' ORDER BY 1" 2>/dev/null \
                  || python3 -c "import sqlite3; print('\n'.join(r[0] for r in sqlite3.connect('$work/single.sqlite').execute(\"SELECT DISTINCT analyzer FROM results WHERE analyzer != 'read' ORDER BY 1\")))"); do
  compare "wide-$analyzer.csv" --wide --analyzer "$analyzer" --csv
done
echo "slurm-check: $runs task runs; single process ${single} s; Slurm array of $tasks tasks (one requeued, restarts=$restarts) + merge ${cluster} s"
exit $different

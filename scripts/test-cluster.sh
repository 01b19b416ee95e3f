#!/bin/sh
# make test-cluster: deploy/slurm-array.sh on a real single-node Slurm
# cluster started on this machine.
#
# As root: installs slurm-wlm and munge with apt-get when missing, starts
# munged, slurmctld and slurmd under a temporary folder with a generated
# slurm.conf naming this host, and submits the script for an exact
# availability (a 0-based array) and a transversal count (a 1-based
# array). Each merged result.json must equal the unsplit --json report
# byte for byte. Then one task of a new availability array is cancelled
# while it runs and resubmitted alone, as the script's header says: the
# merge must still happen, and equal the unsplit report.
#
# Anything that cannot start fails the test with the reason; nothing is
# skipped. The daemons are stopped by their PIDs at the end, also on
# failure; the folder is removed when the test passes and kept (its path
# printed, with the daemons' logs) when it fails.
#
# TIMEOUT (seconds, default 600) bounds each wait for the queue.
set -eu

cd "$(dirname "$0")/.."
repo=$(pwd)
timeout=${TIMEOUT:-600}

fail() {
	echo "test-cluster: FAIL: $*" >&2
	exit 1
}
say() { echo "test-cluster: $*"; }

[ "$(id -u)" = 0 ] || fail "must run as root (munged, slurmctld and slurmd run as root here)"

need=""
for c in slurmctld slurmd sbatch squeue scancel munged mungekey; do
	command -v "$c" >/dev/null 2>&1 || need=yes
done
if [ -n "$need" ]; then
	command -v apt-get >/dev/null 2>&1 || fail "slurm-wlm and munge are missing and there is no apt-get to install them"
	say "installing slurm-wlm and munge"
	apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null ||
		fail "apt-get install slurm-wlm munge failed"
fi
for c in slurmctld slurmd sbatch squeue scancel sacct munged mungekey python3; do
	command -v "$c" >/dev/null 2>&1 || fail "$c is not installed"
done

tmp=$(mktemp -d /tmp/coterie-cluster.XXXXXX)
pids=""
ok=""
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $pids; do
		# wait for each daemon to exit (they are not our children after
		# the subshell, so poll)
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null || true
	done
	if [ -n "$ok" ]; then
		rm -rf "$tmp"
	else
		echo "test-cluster: kept $tmp (logs in $tmp/log)" >&2
		for f in "$tmp"/log/*; do
			[ -f "$f" ] || continue
			echo "--- $f (last lines)" >&2
			tail -n 15 "$f" >&2
		done
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp/bin" "$tmp/etc" "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/run" "$tmp/work"
chmod 700 "$tmp/munge"

say "building coterie"
CGO_ENABLED=0 go build -o "$tmp/bin/coterie" ./cmd/coterie || fail "go build failed"
coterie=$tmp/bin/coterie

# munge, on a socket and key of its own.
mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 || fail "mungekey could not create a key"
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --foreground --force --socket="$socket" --key-file="$tmp/munge/munge.key" \
	--pid-file="$tmp/run/munged.pid" --log-file="$tmp/log/munged.log" \
	--seed-file="$tmp/munge/munge.seed" >"$tmp/log/munged.out" 2>&1 &
pids="$pids $!"
i=0
until [ -S "$socket" ]; do
	i=$((i + 1))
	[ $i -le 50 ] || fail "munged did not create its socket in 10 s (see $tmp/log/munged.log)"
	sleep 0.2
done
munge -n -S "$socket" | unmunge -S "$socket" >/dev/null || fail "munge cannot decode its own credential"

# Two free ports on the loopback for slurmctld and slurmd.
ports=$(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
ctldport=${ports% *}
dport=${ports#* }

host=$(hostname -s)
# slurmd -C prints this machine's node line (CPUs, sockets, memory).
node=$(slurmd -C | head -n 1)
case $node in
NodeName=*) ;;
*) fail "slurmd -C did not describe this node: $node" ;;
esac
cat >"$tmp/etc/slurm.conf" <<EOF
ClusterName=coterie-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
PlugStackConfig=$tmp/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
: >"$tmp/etc/plugstack.conf"
export SLURM_CONF="$tmp/etc/slurm.conf"

slurmctld -D -c -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N "$host" -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids="$pids $!"

i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -qx 'idle'; do
	i=$((i + 1))
	[ $i -le 150 ] || fail "the node did not come up idle in 30 s: $(sinfo -h -N -o '%N %T %E' 2>&1)"
	for p in $pids; do
		kill -0 "$p" 2>/dev/null || fail "a daemon (pid $p) exited while starting"
	done
	sleep 0.2
done
say "cluster up: $host, slurmctld on 127.0.0.1:$ctldport, slurmd on :$dport"

# wait_all waits until the queue is empty: the tasks and the merge jobs
# they queued (nobody else submits to this cluster).
wait_all() {
	i=0
	while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
		i=$((i + 1))
		[ $i -le $((timeout * 2)) ] || fail "jobs still queued after ${timeout} s: $(squeue -h 2>&1)"
		sleep 0.5
	done
}

export PATH="$tmp/bin:$PATH" COTERIE="$coterie"
work=$tmp/work
cd "$work"

# The inputs: an exact availability (BDD split by cofactors) and a count
# of minimal transversals (MMCS subtrees).
"$coterie" generate billiard --q 13 -o "$work/b13.json"
"$coterie" generate billiard --q 11 -o "$work/b11.json"

# submit ARRAY INPUT [COMMAND...]: prints the array's job id.
submit() {
	a=$1
	shift
	sbatch --parsable --array="$a" --cpus-per-task=1 --mem=1500M \
		--output="$work/task-%A_%a.log" "$repo/deploy/slurm-array.sh" "$@" ||
		fail "sbatch --array=$a $*"
}

# check_merged FOLDER UNSPLIT...: the merge in FOLDER ran and its result
# equals the unsplit run's --json report.
check_merged() {
	folder=$1
	shift
	wait_all
	ls "$folder"/merge-*.log >/dev/null 2>&1 || fail "no merge job ran in $folder"
	[ -f "$folder/result.json" ] || fail "no result.json in $folder; merge logs: $(cat "$folder"/merge-*.log)"
	"$coterie" "$@" --json >"$folder/unsplit.json"
	cmp "$folder/result.json" "$folder/unsplit.json" || fail "$folder/result.json differs from the unsplit $*"
}

say "availability of billiard q=13 over --array=0-2"
job=$(submit 0-2 "$work/b13.json")
check_merged "$work/b13-availability" availability "$work/b13.json"
say "merged == unsplit"

say "transversals --count of billiard q=11 over --array=1-3"
job=$(submit 1-3 "$work/b11.json" transversals --count)
check_merged "$work/b11-transversals" transversals "$work/b11.json" --count
say "merged == unsplit"

say "availability of billiard q=13 again (OUT=$work/again) over --array=0-2, task 1 cancelled while it runs"
export OUT="$work/again"
# Task 1 is held while $work/hold exists: it says so in $work/held and
# waits to be cancelled, so the cancellation comes mid-run however fast the
# machine (no race with the computation).
cat >"$tmp/bin/coterie-held" <<HELD
#!/bin/sh
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && [ -e "$work/hold" ]; then
	: >"$work/held"
	while [ -e "$work/hold" ]; do sleep 0.2; done
fi
exec "$coterie" "\$@"
HELD
chmod +x "$tmp/bin/coterie-held"
: >"$work/hold"
job=$(
	COTERIE="$tmp/bin/coterie-held"
	export COTERIE
	submit 0-2 "$work/b13.json"
)
i=0
until [ -e "$work/held" ]; do
	i=$((i + 1))
	[ $i -le $((timeout * 5)) ] || fail "task ${job}_1 never ran"
	sleep 0.2
done
[ ! -e "$work/again/part-1.json" ] || fail "task 1 wrote its part while held"
scancel "${job}_1" || fail "scancel ${job}_1"
say "cancelled ${job}_1"
wait_all
rm -f "$work/hold"
[ ! -e "$work/again/result.json" ] || fail "the merge ran with task 1 cancelled"
grep -q "missing" "$work/again"/merge-*.log || fail "the first merge does not say a shard is missing: $(cat "$work/again"/merge-*.log)"
say "the first merge refused: $(grep -h missing "$work/again"/merge-*.log | head -n 1)"
# As the script's header says: the task alone, with the same arguments.
again=$(submit 1 "$work/b13.json")
say "resubmitted task 1 as job $again"
check_merged "$work/again" availability "$work/b13.json"
say "merged after the resubmission == unsplit"

# Bad input: parts of two differently split runs are refused, nothing
# written.
if "$coterie" merge "$work/b13-availability/part-0.json" "$work/b11-transversals/part-1.json" \
	-o "$work/mixed.json" 2>"$work/mixed.err"; then
	fail "merge of parts of two computations succeeded"
fi
[ ! -e "$work/mixed.json" ] || fail "a refused merge wrote its output"

ok=yes
say "PASS"

#!/bin/sh
# Whole-command benchmarks: coterie run as a user runs it, one process from
# start to exit, timed by hyperfine on big explicit lists, each case
# against its target. Run by `make bench` (not by `make test`).
#
#   ./scripts/bench-commands.sh            # every case, 3 runs each
#   RUNS=5 ./scripts/bench-commands.sh
#   BENCH_DIR=/var/tmp/coterie-bench ./scripts/bench-commands.sh   # keep the inputs
#   ONLY=t11of21 ./scripts/bench-commands.sh   # the cases whose name has t11of21
#
# The inputs are made once in BENCH_DIR (default: a temporary folder):
#   t11of21.dat   all 11-subsets of 21 nodes, 352,716 quorums
#   tree4.dat     the binary tree quorums of height 4, 65,535 quorums on 31 nodes
#   wall30.dat    the CWlog crumbling wall of 30 nodes, 40,106 quorums
#   billiard15.json  the billiard of q = 15 (112 nodes, 112 quorums)
#   rand-small.dat  10^6 random quorums of 2–20 of 200 nodes (not intersecting)
#   rand-major.dat  10^6 random quorums of 101–120 of 200 nodes (intersecting)
# The .dat lists keep no kind: whatever coterie recognises in them, it
# recognises from the quorums.
# Anchors, when built: SHD=/path/to/shd (Murakami–Uno's minimal transversal
# enumerator, run as "shd 0 FILE": MMCS, no output file, so it prints the
# count, then the count of each size from 0) is timed on the transversal
# counts of t11of21, tree4 and wall30; it reads the .dat lists as they are
# (one hyperedge a line, numbers separated by any non-digit; node 0, unused
# here, does not change the count). Build it outside the repository from
# Takeaki Uno's C code as redistributed by
# github.com/VeraLiconaResearchGroup/MHSGenerationAlgorithms:
#   git clone https://github.com/VeraLiconaResearchGroup/MHSGenerationAlgorithms /tmp/mhs
#   mkdir -p /tmp/anchors/shd
#   cd /tmp/mhs/containers/shd/src/alg && gcc -O3 -o /tmp/anchors/shd/shd shd.c
#   SHD=/tmp/anchors/shd/shd ONLY=wall30 ./scripts/bench-commands.sh
# (shd.c includes the other .c files itself.)
# CUDD=/path/to/driver, a program linked with CUDD that reads a .dat list,
# builds the OR of the ANDs of its quorums and counts the satisfying sets
# by weight, run as "driver freq FILE" (variables by decreasing frequency
# in the quorums) or "driver natural FILE", on the exact availabilities.
#
# The report (Markdown, hyperfine's mean and its spread, CPU time, target)
# is printed and kept in BENCH_DIR/report.md; a case over its target is
# marked SLOW, and the script exits 1 if any is. The targets hold on an
# otherwise idle 2-core machine; under load, read the CPU column.
set -eu

cd "$(dirname "$0")/.."
runs=${RUNS:-3}
command -v hyperfine >/dev/null 2>&1 || {
	echo "bench-commands: needs hyperfine (Debian: apt-get install hyperfine)" >&2
	exit 2
}
dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d /tmp/coterie-bench.XXXXXX)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
bin=$dir/coterie
CGO_ENABLED=0 go build -o "$bin" ./cmd/coterie

[ -s "$dir/t11of21.dat" ] || "$bin" generate majority --n 21 --enumerate --limit 400000 -o "$dir/t11of21.dat"
[ -s "$dir/tree4.dat" ] || "$bin" generate tree --degree 2 --height 4 -o "$dir/tree4.dat" 2>/dev/null
[ -s "$dir/wall30.dat" ] || "$bin" generate wall --cwlog --n 30 -o "$dir/wall30.dat" 2>/dev/null
[ -s "$dir/billiard15.json" ] || "$bin" generate billiard --q 15 -o "$dir/billiard15.json"
[ -s "$dir/rand-small.dat" ] || go run ./scripts/benchgen 1000000 200 2 20 1 >"$dir/rand-small.dat"
[ -s "$dir/rand-major.dat" ] || go run ./scripts/benchgen 1000000 200 101 120 1 >"$dir/rand-major.dat"

report=$dir/report.md
printf '| case | mean (s) | ± (s) | CPU user+sys (s) | target (s) | |\n|---|---|---|---|---|---|\n' >"$report"
slow=0

# bench NAME TARGET COMMAND...: hyperfine the command (exit 1, a failed
# verify, counts as a run), then add its line to the report.
bench() {
	name=$1
	target=$2
	shift 2
	case $name in
	*"${ONLY:-}"*) ;;
	*) return 0 ;;
	esac
	csv=$dir/$(printf %s "$name" | tr -c "A-Za-z0-9._-" _).csv
	hyperfine --style basic --warmup 1 --runs "$runs" -i --export-csv "$csv" -n "$name" "$*" >/dev/null
	line=$(awk -F, -v t="$target" 'NR == 2 {
		cpu = $5 + $6
		mark = ""
		if (t != "-" && $2 > t) mark = "SLOW"
		printf "%.3f %.3f %.3f %s\n", $2, $3, cpu, mark
	}' "$csv")
	set -- $line
	echo "| $name | $1 | $2 | $3 | $target | ${4:-} |" >>"$report"
	[ "${4:-}" != SLOW ] || slow=1
	echo "$name: mean $1 s ± $2, CPU $3 s (target $target s) ${4:-}"
}

# Each run is stopped at LIMIT (default 120s): a case that would take much
# longer shows as SLOW at about LIMIT rather than holding the suite.
c="$bin --timeout ${LIMIT:-120s}"
bench "t11of21 verify" 2 "$c verify $dir/t11of21.dat"
bench "t11of21 domination" 2 "$c domination $dir/t11of21.dat"
bench "t11of21 info" 2 "$c info $dir/t11of21.dat"
bench "t11of21 transversals --count" 2 "$c transversals --count $dir/t11of21.dat"
bench "t11of21 availability --p 0.9" 2 "$c availability --p 0.9 $dir/t11of21.dat"
bench "t11of21 availability --method bdd" 2 "$c availability --method bdd --p 0.9 $dir/t11of21.dat"
bench "tree4 domination" 5 "$c domination $dir/tree4.dat"
bench "tree4 verify" - "$c verify $dir/tree4.dat"
bench "tree4 transversals --count" - "$c transversals --count $dir/tree4.dat"
bench "tree4 availability" - "$c availability --p 0.9 $dir/tree4.dat"
bench "tree4 availability --method bdd" - "$c availability --method bdd --p 0.9 $dir/tree4.dat"
bench "wall30 transversals --count" - "$c transversals --count $dir/wall30.dat"
bench "wall30 availability" - "$c availability --p 0.9 $dir/wall30.dat"
bench "wall30 availability --method bdd" - "$c availability --method bdd --p 0.9 $dir/wall30.dat"
bench "billiard15 availability" - "$c availability --p 0.9 $dir/billiard15.json"
bench "billiard15 availability --shard 1/3" - "$c availability --p 0.9 --shard 1/3 $dir/billiard15.json"
bench "rand-small verify" 10 "$c verify $dir/rand-small.dat"
bench "rand-major verify" 10 "$c verify $dir/rand-major.dat"
if [ -n "${SHD:-}" ]; then
	bench "t11of21 SHD (anchor)" - "$SHD 0 $dir/t11of21.dat"
	bench "tree4 SHD (anchor)" - "$SHD 0 $dir/tree4.dat"
	bench "wall30 SHD (anchor)" - "$SHD 0 $dir/wall30.dat"
fi
if [ -n "${CUDD:-}" ]; then
	bench "tree4 CUDD frequency order (anchor)" - "$CUDD freq $dir/tree4.dat"
	bench "wall30 CUDD natural order (anchor)" - "$CUDD natural $dir/wall30.dat"
fi

echo
cat "$report"
exit $slow

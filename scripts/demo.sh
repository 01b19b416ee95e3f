#!/bin/sh
# A tour of coterie on built-in examples (make demo). Everything it writes
# goes to demo-out/.
set -eu
cd "$(dirname "$0")/.."
bin=${COTERIE:-bin/coterie}
out=demo-out
mkdir -p "$out"

step() {
	printf '\n$ coterie %s\n' "$*"
	"$bin" "$@"
}

step generate --list
step generate fpp --order 3 -o "$out/pg3.json"
step verify "$out/pg3.json"
step info "$out/pg3.json"
step domination "$out/pg3.json"
step generate grid --n 16 -o "$out/grid16.json"
step generate billiard --q 5 -o "$out/billiard5.json"
step generate majority --n 13 -o "$out/majority13.json"
step compare "$out/pg3.json" "$out/grid16.json" "$out/billiard5.json" "$out/majority13.json" --p 0.9,0.99
step availability "$out/pg3.json" "$out/grid16.json" "$out/billiard5.json" "$out/majority13.json" \
	--range 0.5:1:0.1 --plot "$out/availability.svg"
step simulate "$out/pg3.json" --protocol maekawa,ordered,ricart-agrawala --entries 10000 --seed 1
# A broken system: line 1 of the plane loses a node, and verify says which
# two quorums no longer meet (exit status 1).
"$bin" convert "$out/pg3.json" --format text | sed 's/^1 2 3 4 # owner: 1$/1 2 3 # owner: 1/' >"$out/broken.txt"
printf '\n$ coterie verify %s   # line 1 lost node 4\n' "$out/broken.txt"
"$bin" verify "$out/broken.txt" || echo "(exit status $?)"
step convert "$out/pg3.json" -o "$out/pg3.dat"
# See it: a drawing of the plane with line 1 highlighted, and one page on
# three systems.
step draw "$out/pg3.json" -o "$out/pg3.svg" --quorum 1
step report "$out/pg3.json" "$out/grid16.json" "$out/billiard5.json" -o "$out/report.html"
# Read-write quorums as an expression: rows of a 2x3 grid read, the dual
# (one node of each row) writes; the optimal strategy at 25% reads.
step info --reads 'a*b*c + d*e*f' --read-fraction 0.25
# The classic catalogue: the triangle wall is nondominated; a Byzantine
# masking system tolerates b = 2 faulty nodes.
step generate triangle --rows 4 -o "$out/triangle4.json"
step domination "$out/triangle4.json"
step generate byzantine --n 9 --b 2 --masking -o "$out/byzantine9.json"
step verify "$out/byzantine9.json" --byzantine 2 --masking
# A system people run: ZooKeeper's hierarchical quorums (three groups of
# three servers; a quorum is two servers of each of two groups), read from
# its zoo.cfg; then its exact availability when each group also fails as
# a whole (a rack or zone up with p = 0.999).
printf 'server.%d=zk%d:2888:3888\n' 1 1 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 >"$out/zoo.cfg"
printf 'group.1=1:2:3\ngroup.2=4:5:6\ngroup.3=7:8:9\n' >>"$out/zoo.cfg"
step check-config "$out/zoo.cfg" --p 0.99
printf 'domain,p\ngroup.1,0.999\ngroup.2,0.999\ngroup.3,0.999\n' >"$out/groups.csv"
step availability "$out/zoo.cfg" --p 0.99 --domains "$out/groups.csv"
# Split work: two shards of an exact availability run, merged.
printf '\n$ coterie availability %s --p 0.9,0.99 --shard 1/2 > %s   # and 2/2\n' "$out/grid16.json" "$out/part1.json"
"$bin" availability "$out/grid16.json" --p 0.9,0.99 --shard 1/2 >"$out/part1.json"
"$bin" availability "$out/grid16.json" --p 0.9,0.99 --shard 2/2 >"$out/part2.json"
step merge "$out/part1.json" "$out/part2.json"
printf '\nFiles are in %s/ (the availability plot is %s/availability.svg, the drawing\n%s/pg3.svg, the report %s/report.html).\n' "$out" "$out" "$out" "$out"

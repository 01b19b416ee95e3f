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
printf '\nFiles are in %s/ (the availability plot is %s/availability.svg).\n' "$out" "$out"

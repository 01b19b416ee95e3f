#!/bin/sh
# Run every fuzz target in the module for the given time each (default 1m).
set -eu
time=${1:-1m}
cd "$(dirname "$0")/.."
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $target ($time)"
		go test -run '^$' -fuzz "^$target\$" -fuzztime "$time" "$pkg"
	done
done

package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

// Command benchgen writes the random lists of the whole-command benchmarks
// (scripts/bench-commands.sh) in the .dat format: M quorums over the
// nodes 1..N, each of a size drawn uniformly from LO..HI and its nodes
// uniformly without repeats, from the seed SEED (the same arguments give
// the same bytes).
//
//	go run ./scripts/benchgen M N LO HI SEED > list.dat
func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: benchgen M N LO HI SEED")
		os.Exit(2)
	}
	var a [5]int
	for i := range a {
		v, err := strconv.Atoi(os.Args[i+1])
		if err != nil || v < 0 {
			fmt.Fprintf(os.Stderr, "benchgen: %q is not a count\n", os.Args[i+1])
			os.Exit(2)
		}
		a[i] = v
	}
	m, n, lo, hi, seed := a[0], a[1], a[2], a[3], a[4]
	if lo < 1 || hi < lo || hi > n {
		fmt.Fprintln(os.Stderr, "benchgen: want 1 ≤ LO ≤ HI ≤ N")
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i + 1
	}
	for range m {
		k := lo + rng.IntN(hi-lo+1)
		for i := 0; i < k; i++ {
			j := i + rng.IntN(n-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for i := 0; i < k; i++ {
			if i > 0 {
				w.WriteByte(' ')
			}
			fmt.Fprint(w, perm[i])
		}
		w.WriteByte('\n')
	}
}

package protocol

import (
	"fmt"
	"strings"
)

// Default returns the protocol run on sys when none is named:
// Manabe and Tajima's h-out of-k algorithm on an (h,k)-arbiter or a
// k-arbiter with k > 1, else Maekawa's algorithm with its fix.
func Default(sys *System) Spec {
	if sys.HK || sys.K > 1 {
		return hkSpec
	}
	return maekawaFixedSpec
}

// Kinds returns the message kinds r counted, in the order of its
// protocol's Spec.Kinds.
func (r *Result) Kinds() []string {
	sp, _ := Lookup(r.Protocol)
	var out []string
	for _, k := range sp.Kinds {
		if _, ok := r.ByType[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// Len returns the number of scheduled steps of c (0 for nil).
func (c *Counterexample) Len() int {
	n := 0
	if c != nil {
		for _, e := range c.Steps {
			n = max(n, e.Step)
		}
	}
	return n
}

// CycleText describes a wait-for cycle in words: node cycle[i] waits for
// member via[i], held by node cycle[i+1] (all 1-based, as in
// Deadlock.Cycle and Counterexample.Cycle).
func CycleText(cycle, via []int) string {
	var parts []string
	for i, a := range cycle {
		parts = append(parts, fmt.Sprintf("node %d waits for member %d, held by node %d", a, via[i], cycle[(i+1)%len(cycle)]))
	}
	return strings.Join(parts, "; ")
}

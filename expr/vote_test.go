package expr

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// TestVoteQuorums: the minimal quorums of choose(K, …) over repeated
// nodes (a weighted vote) are those the general candidates give, in the
// same order, and each is a minimal set of weight at least K.
func TestVoteQuorums(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		n := 1 + r.IntN(7)
		var args []*Expr
		weight := make([]int, n)
		for v := range n {
			w := r.IntN(4)
			weight[v] = w
			for range w {
				args = append(args, Node(v))
			}
		}
		if len(args) < 2 {
			continue
		}
		r.Shuffle(len(args), func(i, j int) { args[i], args[j] = args[j], args[i] })
		e, err := NewChoose(1+r.IntN(len(args)), args...)
		if err != nil {
			t.Fatal(err)
		}
		if e.ReadOnce() {
			continue
		}
		var want, got []*set.Set
		e.generalQuorums(context.Background(), false, func(q *set.Set) bool { want = append(want, q); return true })
		for q := range e.MinimalQuorums() {
			got = append(got, q)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d minimal quorums, the candidates give %d", e, len(got), len(want))
		}
		for i := range got {
			if !set.Equal(got[i], want[i]) {
				t.Fatalf("%s: quorum %d is %v, the candidates give %v", e, i, got[i], want[i])
			}
			w := 0
			for v := range got[i].All() {
				w += weight[v]
			}
			for v := range got[i].All() {
				if w < e.K || w-weight[v] >= e.K {
					t.Fatalf("%s: %v is not a minimal set of weight ≥ %d", e, got[i], e.K)
				}
			}
		}
	}
}

package rw

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// TestWithoutStrategy: with a node failed, the optimal strategy never
// uses it, and the load of a majority of 5 with one node down is that of
// a 3-of-4 threshold: 3/4.
func TestWithoutStrategy(t *testing.T) {
	maj := expr.Threshold(5, 3)
	s, err := New(5, maj, maj, nil)
	if err != nil {
		t.Fatal(err)
	}
	down, err := s.Without(set.Of(4))
	if err != nil {
		t.Fatal(err)
	}
	st, m, err := down.Optimal(context.Background(), Options{Workload: Fixed(big.NewRat(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range [][]Choice{st.Reads, st.Writes} {
		for _, c := range side {
			if c.Quorum.Has(4) {
				t.Fatalf("strategy uses the failed node 5: %v", c.Quorum)
			}
		}
	}
	if m.Load.Cmp(big.NewRat(3, 4)) != 0 {
		t.Fatalf("load %s, want 3/4", m.Load.RatString())
	}
	if _, err := s.Without(set.Of(0, 1, 2)); !errors.Is(err, ErrNoQuorum) {
		t.Fatalf("three of five down: %v", err)
	}
}

package rw

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/expr"
)

// The availability of a majority of 3 (reads and writes) at each p is the
// formula 3p²−2p³ with independent nodes; with the three nodes in one
// zone up with probability 9/10, it is 9/10 of that; a node's own p wins.
func TestCandidateAvailabilityAt(t *testing.T) {
	maj := expr.Threshold(3, 2)
	c := &Candidate{Reads: maj, Writes: maj}
	nodes := DefaultNodes(3)
	ps := []float64{0.5, 0.9, 0.99}
	f := func(p float64) float64 { return 3*p*p - 2*p*p*p }
	ctx := context.Background()

	got, err := c.AvailabilityAt(ctx, nodes, nil, ps)
	if err != nil {
		t.Fatal(err)
	}
	tree := domain.New(3)
	for v := range 3 {
		if err := tree.Place(v, "zone-a"); err != nil {
			t.Fatal(err)
		}
	}
	same, err := c.AvailabilityAt(ctx, nodes, tree, ps) // no domain can fail
	if err != nil {
		t.Fatal(err)
	}
	d, _ := tree.Lookup("zone-a")
	if err := tree.SetP(d, big.NewRat(9, 10)); err != nil {
		t.Fatal(err)
	}
	zoned, err := c.AvailabilityAt(ctx, nodes, tree, ps)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if math.Abs(got[i]-f(p)) > 1e-12 || math.Abs(same[i]-f(p)) > 1e-12 {
			t.Errorf("p = %v: %v and %v, want %v", p, got[i], same[i], f(p))
		}
		if math.Abs(zoned[i]-0.9*f(p)) > 1e-12 {
			t.Errorf("p = %v in a zone up 9/10 of the time: %v, want %v", p, zoned[i], 0.9*f(p))
		}
	}

	own := DefaultNodes(3)
	own[0].P = big.NewRat(1, 1) // node 1 never fails: 2p − p² (one of the other two)
	mixed, err := c.AvailabilityAt(ctx, own, nil, ps)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if want := 2*p - p*p; math.Abs(mixed[i]-want) > 1e-12 {
			t.Errorf("p = %v, node 1 always up: %v, want %v", p, mixed[i], want)
		}
	}
}

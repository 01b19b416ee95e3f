package rw

import (
	"context"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/set"
)

// AvailabilityAt agrees with the binomial sums of a threshold side, with
// independence on a read-once side, and keeps a node's own p.
func TestAvailabilityAt(t *testing.T) {
	// Reads 3 of 5 (a threshold), writes their dual, 3 of 5 again.
	maj, err := New(5, expr.Threshold(5, 3), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	atLeast := func(k, n int, p float64) float64 {
		s := 0.0
		for i := k; i <= n; i++ {
			s += float64(new(big.Int).Binomial(int64(n), int64(i)).Int64()) * math.Pow(p, float64(i)) * math.Pow(1-p, float64(n-i))
		}
		return s
	}
	ps := []float64{0.3, 0.9}
	got, err := maj.AvailabilityAt(context.Background(), ps, AvailabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		want := atLeast(3, 5, p)
		if !got[i].Exact || math.Abs(got[i].Reads-want) > 1e-12 || math.Abs(got[i].Writes-want) > 1e-12 {
			t.Errorf("p = %v: %+v, want reads = writes = %v exactly", p, got[i], want)
		}
	}
	// Reads a*b + c*d (read-once), writes its dual (a+b)*(c+d) listed;
	// node a always up.
	g, err := New(4, letters(t, "a*b + c*d"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Nodes[0].P = big.NewRat(1, 1)
	p := 0.5
	got, err = g.AvailabilityAt(context.Background(), []float64{p}, AvailabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reads := 1 - (1-p)*(1-p*p)      // b, or c and d
	writes := 1 * (1 - (1-p)*(1-p)) // (a or b) and (c or d)
	if math.Abs(got[0].Reads-reads) > 1e-12 || math.Abs(got[0].Writes-writes) > 1e-12 {
		t.Errorf("%+v, want reads %v, writes %v", got[0], reads, writes)
	}
	// Reads 2 of a, b, c over four nodes: neither read-once nor a
	// threshold of all the nodes, so listed.
	h, err := New(4, letters(t, "a*b + a*c + b*c"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = h.AvailabilityAt(context.Background(), []float64{p}, AvailabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := atLeast(2, 3, p); !got[0].Exact || math.Abs(got[0].Reads-want) > 1e-12 {
		t.Errorf("%+v, want reads %v exactly", got[0], want)
	}
	if _, err := h.AvailabilityAt(context.Background(), []float64{p}, AvailabilityOptions{Limit: 1}); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("a side of 3 quorums listed within a limit of 1: %v", err)
	}
}

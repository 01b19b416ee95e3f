package availability

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/construct"
)

// The billiard of q = 13 is too large for the probes of NewSplit: its
// pieces are cut at a window of its order. Merged from 1, 2 and 3 shards
// they give the polynomial of the unsplit BDD.
func TestSplitWindowBilliardMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of BDD")
	}
	ctx := context.Background()
	f, err := construct.Billiard(13)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSplit(ctx, f, SplitBits(f.N, 3))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := orderCandidates(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(cands, func(o []int) bool { return slices.Equal(o, sp.Order) }) {
		t.Fatalf("billiard 13 split along a candidate order (%s), not at a window", sp.ID())
	}
	whole, err := Compute(ctx, f, Options{})
	if err != nil || !whole.Exact || whole.Method != MethodBDD {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		ss := shares(t, f, n, ShareOptions{})
		res, _, err := MergeShares(ctx, ss, []float64{0.9})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || !res.Poly.Equal(whole.Poly) {
			t.Errorf("billiard 13 in %d shards: %v, want %v", n, res.Poly, whole.Poly)
		}
	}
}

// The window the split of the billiard of q = 15 takes keeps its 64
// pieces near 7 million nodes together (the unsplit diagram has 1.7
// million; a window judged by one trial piece made 10 million, and each
// of 3 shards more work than the whole run), and they add up to the
// unsplit polynomial. COTERIE_LONG=1: it builds every piece (a minute).
func TestSplitWindowBilliard15(t *testing.T) {
	if os.Getenv("COTERIE_LONG") == "" {
		t.Skip("set COTERIE_LONG=1 to build the 64 pieces of the billiard of q = 15 (a minute)")
	}
	ctx := context.Background()
	f, err := construct.Billiard(15)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSplit(ctx, f, 6)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	sum := NewPolynomial(f.N)
	for j := range 64 {
		g, always := sp.restrict(f, j)
		if !always && len(g.Quorums) > 0 {
			d, err := BuildBDD(ctx, g, BDDOptions{Order: naturalOrder(g.N)})
			if err != nil {
				t.Fatal(err)
			}
			total += d.Size()
		}
		p, err := sp.Piece(ctx, f, j, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum.Add(p)
	}
	if total > 8_000_000 {
		t.Errorf("the pieces of %s have %d nodes together", sp.ID(), total)
	}
	whole, err := Compute(ctx, f, Options{})
	if err != nil || !whole.Exact || !sum.Equal(whole.Poly) {
		t.Errorf("the pieces add up to %v, the whole is %v (%v)", sum, whole.Poly, err)
	}
}

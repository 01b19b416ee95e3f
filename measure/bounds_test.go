package measure

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

func randomSystem(r *rand.Rand, n int) *set.Family {
	f := set.NewFamily(n)
	for range 2 + r.IntN(12) {
		q := set.New(n)
		for q.IsEmpty() {
			for v := range n {
				if r.IntN(3) == 0 {
					q.Add(v)
				}
			}
		}
		f.Add(q, set.NoOwner)
	}
	return f
}

// LoadBounds brackets the certified LP optimum on random systems, and
// LoadOf past its work limit returns those bounds with a strategy that
// reaches the upper one.
func TestLoadBoundsBracketTheLP(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 40 {
		f := randomSystem(r, 3+r.IntN(10))
		l, err := LoadOf(context.Background(), f, LoadOptions{})
		if err != nil || l.Exact == nil {
			t.Fatalf("system %d: %v %v", i, l, err)
		}
		lo, up, err := LoadBounds(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if lo.Cmp(l.Exact) > 0 || up.Cmp(l.Exact) < 0 {
			t.Fatalf("system %d %v: bounds %v..%v, LP %v", i, f, lo, up, l.Exact)
		}
		b, err := LoadOf(context.Background(), f, LoadOptions{MaxWork: 1})
		if err != nil || b.Method != "bounds" || b.Exact != nil || b.Lower.Cmp(lo) != 0 || b.Upper.Cmp(up) != 0 {
			t.Fatalf("system %d: LoadOf past the work limit: %+v, %v", i, b, err)
		}
		sum := new(big.Rat)
		for _, w := range b.Strategy {
			sum.Add(sum, w.Exact)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("system %d: strategy weights sum to %v", i, sum)
		}
		members := make([][]int, len(f.Quorums))
		for q := range f.Quorums {
			members[q] = f.Quorums[q].Elements()
		}
		w := make([]*big.Rat, len(f.Quorums))
		for q := range w {
			w[q] = new(big.Rat)
		}
		for _, e := range b.Strategy {
			w[e.Quorum] = e.Exact
		}
		if got := maxLoad(members, w, f.N); got == nil || got.Cmp(b.Upper) != 0 {
			t.Fatalf("system %d: the strategy's busiest node carries %v, upper bound %v", i, got, b.Upper)
		}
	}
}

// Past its work limit the resilience comes as proved bounds that contain
// the exact value; within it, the exact value. Maekawa's N = 1000 sets
// are bounded within the default limit (not proved exactly there).
func TestResilienceBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for i := range 60 {
		f := randomSystem(r, 4+r.IntN(12))
		exact, err := ResilienceOf(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ResilienceBounded(context.Background(), f, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b.Lower > exact.F || b.F < exact.F || b.Bounded != (b.Lower < b.F) {
			t.Fatalf("system %d %v: bounds %d..%d (bounded %v), exact %d", i, f, b.Lower, b.F, b.Bounded, exact.F)
		}
		for _, q := range f.Quorums {
			if !set.Intersects(&q, b.Witness) {
				t.Fatalf("system %d: witness %v misses a quorum", i, b.Witness)
			}
		}
		// The load given is the load LoadOf finds: the same bounds.
		l, err := LoadOf(context.Background(), f, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		given, err := ResilienceWithin(context.Background(), f, ResilienceOptions{MaxNodes: 1, Load: l})
		if err != nil || given.Lower != b.Lower || given.F != b.F {
			t.Fatalf("system %d: with its load given %+v, %v; without %d..%d", i, given, err, b.Lower, b.F)
		}
		full, err := ResilienceBounded(context.Background(), f, 0)
		if err != nil || full.Bounded || full.F != exact.F {
			t.Fatalf("system %d: within the default limit %+v, %v; exact %d", i, full, err, exact.F)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ResilienceBounded(ctx, grid(9, 9), 0); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	_, _, err := domination.MinTransversalBounded(context.Background(), grid(9, 9), 0)
	if err != nil {
		t.Fatal(err)
	}
}

// Maekawa's N = 1000 sets: the load is proved exactly within the default
// work (its strategy, evaluated here, reaches it; the game's bounds contain
// it), and the resilience comes as proved bounds consistent with it
// (τ ≥ ⌈1/L⌉) and with the smallest quorums (32 nodes, each a transversal).
func TestMaekawa1000(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of work")
	}
	f, err := construct.Maekawa(1000, construct.MapMin)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadOf(context.Background(), f, LoadOptions{})
	if err != nil || l.Method != "lp" || l.Exact == nil {
		t.Fatalf("load: method %q, exact %v, %v", l.Method, l.Exact, err)
	}
	if got := exactBusiest(t, f, l); got.Cmp(l.Exact) != 0 {
		t.Fatalf("the strategy's busiest node carries %v, load %v", got, l.Exact)
	}
	lo, up, err := LoadBounds(context.Background(), f)
	if err != nil || lo.Cmp(l.Exact) > 0 || up.Cmp(l.Exact) < 0 {
		t.Fatalf("load %v outside the game's bounds %v..%v (%v)", l.Exact, lo, up, err)
	}
	r, err := ResilienceBounded(context.Background(), f, 1000)
	if err != nil {
		t.Fatal(err)
	}
	inv := new(big.Rat).Inv(l.Exact)
	if new(big.Rat).SetInt64(int64(r.Lower+1)).Cmp(inv) < 0 || r.F > 31 {
		t.Errorf("resilience bounds %d..%d, load %v", r.Lower, r.F, l.Exact)
	}
}

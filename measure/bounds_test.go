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

// Maekawa's N = 1000 sets: load and resilience in bounded work, the bounds
// proved and consistent (τ ≥ 1/L: the resilience's lower bound is at least
// ⌈1/load_upper⌉ − 1).
func TestMaekawa1000Bounded(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of work")
	}
	f, err := construct.Maekawa(1000, construct.MapMin)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadOf(context.Background(), f, LoadOptions{})
	if err != nil || l.Method != "bounds" || l.Lower.Cmp(l.Upper) > 0 || l.Lower.Sign() <= 0 {
		t.Fatalf("load: %+v, %v", l, err)
	}
	// Every quorum has at least 32 of the 1000 nodes: the uniform
	// distribution proves 32/1000, and the bound found is no worse.
	if l.Lower.Cmp(big.NewRat(32, 1000)) < 0 {
		t.Errorf("load lower bound %v below 32/1000", l.Lower)
	}
	r, err := ResilienceBounded(context.Background(), f, 1000)
	if err != nil {
		t.Fatal(err)
	}
	up, _ := l.Upper.Float64()
	if float64(r.Lower+1) < 1/up-1e-9 || r.F > 31 {
		t.Errorf("resilience bounds %d..%d, load upper %v", r.Lower, r.F, l.Upper)
	}
}

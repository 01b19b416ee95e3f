package measure

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// intersecting returns a family of pairwise intersecting, mutually
// incomparable subsets of n nodes built by a fixed random process: a
// quorum is drawn and then given a node of every earlier quorum it misses.
func intersecting(r *rand.Rand, n int) *set.Family {
	var qs []*set.Set
	for range 2 + r.IntN(7) {
		q := set.New(n)
		for range 1 + r.IntN(n) {
			q.Add(r.IntN(n))
		}
		for _, o := range qs {
			if !set.Intersects(q, o) {
				e := o.Elements()
				q.Add(e[r.IntN(len(e))])
			}
		}
		qs = append(qs, q)
	}
	f := set.NewFamily(n)
	for i, q := range qs {
		keep := true
		for j, o := range qs {
			if i != j && set.Subset(o, q) && (!set.Subset(q, o) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			f.Add(q, set.NoOwner)
		}
	}
	return f
}

// The dense path's strategy and dual, checked here in big.Rat apart from
// the code that found them: w is a distribution on the quorums, y one on
// the nodes, and the busiest node's load under w equals the lightest
// quorum's weight under y — which by weak duality (every strategy's
// busiest node carries at least min_Q y(Q)) proves the value is the load.
// The load is also the packing simplex's, an independent method.
func TestDenseCertificate(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 31))
	one := big.NewRat(1, 1)
	for i := range 300 {
		n := 2 + r.IntN(5) // n ≤ 6
		f := intersecting(r, n)
		name := fmt.Sprintf("system %d (%v)", i, f.Quorums)
		members := membersOf(f)
		w, y, L, err := denseGame(context.Background(), n, members)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum := new(big.Rat)
		load := make([]big.Rat, n)
		for q, v := range w {
			if v.Sign() < 0 {
				t.Fatalf("%s: weight %v < 0", name, v)
			}
			sum.Add(sum, v)
			for _, x := range members[q] {
				load[x].Add(&load[x], v)
			}
		}
		if sum.Cmp(one) != 0 {
			t.Fatalf("%s: weights sum to %v", name, sum)
		}
		busiest := new(big.Rat)
		for x := range load {
			if load[x].Cmp(busiest) > 0 {
				busiest.Set(&load[x])
			}
		}
		sum.SetInt64(0)
		for _, v := range y {
			if v.Sign() < 0 {
				t.Fatalf("%s: dual %v < 0", name, v)
			}
			sum.Add(sum, v)
		}
		if sum.Cmp(one) != 0 {
			t.Fatalf("%s: dual sums to %v", name, sum)
		}
		var lightest *big.Rat
		for _, mem := range members {
			s := new(big.Rat)
			for _, x := range mem {
				s.Add(s, y[x])
			}
			if lightest == nil || s.Cmp(lightest) < 0 {
				lightest = s
			}
		}
		if busiest.Cmp(L) != 0 || lightest.Cmp(L) != 0 {
			t.Fatalf("%s: busiest node %v, lightest quorum %v, load %v", name, busiest, lightest, L)
		}
		l, err := denseLoad(context.Background(), f, members)
		if err != nil || l.Exact == nil || l.Exact.Cmp(L) != 0 {
			t.Fatalf("%s: denseLoad %v, %v; want exact %v", name, l, err, L)
		}
		if p, err := packingLoad(context.Background(), n, members, 1e12); err != nil || p != nil && p.Exact.Cmp(L) != 0 {
			t.Errorf("%s: packing simplex %v (%v), dense %v", name, p, err, L)
		}
	}
}

// The smallest expected quorum size among optimal strategies: the
// strategy smallestNetwork returns still carries the load exactly, and its
// expected quorum size is at most that of the strategies the dense path
// and the packing simplex find.
func TestSmallestNetworkKeepsLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for i := range 200 {
		n := 3 + r.IntN(6)
		f := intersecting(r, n)
		members := membersOf(f)
		if !sizesDiffer(members) {
			continue
		}
		l, err := denseLoad(context.Background(), f, members)
		if err != nil || l.Exact == nil {
			t.Fatalf("system %d: %v, %v", i, l, err)
		}
		before := l.NetworkLoadExact
		smallestNetwork(context.Background(), n, members, l)
		if got := exactBusiest(t, f, l); got.Cmp(l.Exact) != 0 {
			t.Fatalf("system %d: busiest node %v, load %v", i, got, l.Exact)
		}
		if l.NetworkLoadExact.Cmp(before) > 0 {
			t.Errorf("system %d: network load %v above the dense strategy's %v", i, l.NetworkLoadExact, before)
		}
		if p, _ := packingLoad(context.Background(), n, members, 1e12); p != nil && l.NetworkLoadExact.Cmp(p.NetworkLoadExact) > 0 {
			t.Errorf("system %d: network load %v above the packing strategy's %v", i, l.NetworkLoadExact, p.NetworkLoadExact)
		}
	}
}

// A cancelled context stops the dense path with ctx's error: before it
// starts, and in the middle of the floating-point simplex (a context that
// ends at its second look, counted rather than timed).
func TestDenseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := testsys.Family(rand.New(rand.NewPCG(3, 4)), 40, 120, 0.2)
	members := membersOf(f)
	if _, err := denseLoad(ctx, f, members); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 1}
	if _, err := denseLoad(stop, f, members); !errors.Is(err, context.Canceled) || stop.Calls != 2 {
		t.Errorf("cancelled at the second look: %v after %d looks", err, stop.Calls)
	}
}

package domination

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// solverOnly leaves the table of subsets out: the paths that scale.
const solverOnly = useStructure | useMMCS | useSAT

// engineSets are the ways decideWith may be restricted, each able to
// decide any explicit family alone.
var engineSets = []struct {
	name string
	use  engines
}{
	{"sat", useSAT},
	{"mmcs", useMMCS},
	{"upset", useUpset | useSAT}, // SAT only where the table does not apply (k > 1)
	{"race", useMMCS | useSAT},
	{"all", allEngines},
}

// Every engine, alone and together, agrees with brute force on random
// coteries and k-arbiters, and every witness satisfies the definitions and
// is minimal.
func TestEnginesAgreeWithBruteForce(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(15, 21))
	for i := range 150 {
		n := 3 + r.IntN(10)
		k := 1 + i%3
		f := randomArbiter(r, n, k, 30)
		if len(f.Quorums) == 0 {
			continue
		}
		dom, _ := bruteDominated(f)
		for _, e := range engineSets {
			got, err := decideWith(ctx, f, e.use)
			if err != nil {
				t.Fatalf("%s on %v: %v", e.name, f, err)
			}
			if got.Nondominated == dom {
				t.Fatalf("%s on %v (k=%d): nondominated %v, brute force dominated %v", e.name, f, k, got.Nondominated, dom)
			}
			if dom {
				checkWitnessBrute(t, f, got.Witness)
			}
		}
	}
}

// relabel returns f with its nodes renamed by a random permutation of a
// universe of n ≥ f.N nodes and its quorums shuffled.
func relabel(r *rand.Rand, f *set.Family, n int) *set.Family {
	perm := r.Perm(n)
	g := set.NewFamily(n)
	g.K = f.K
	for _, i := range r.Perm(len(f.Quorums)) {
		s := set.New(n)
		for v := range f.Quorums[i].All() {
			s.Add(perm[v])
		}
		g.Add(s, set.NoOwner)
	}
	return g
}

// Recognising structure never changes an answer: for all w-subsets of a
// support, relabelled at random inside a larger universe, and for near
// misses (one subset dropped, one duplicated, one grown), the verdict with
// every engine equals the verdict with the SAT solver alone, and the
// witnesses check; the recognised ones are decided by closed form, the near
// misses are not.
func TestStructureNeverChangesTheAnswer(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ s, w, k int }{
		{3, 2, 1}, {4, 3, 1}, {5, 3, 1}, {6, 4, 1}, {7, 4, 1}, {8, 5, 1}, {9, 5, 1},
		{7, 5, 2}, {8, 6, 2}, {10, 8, 2}, {9, 7, 3}, {10, 8, 3},
	} {
		base := uniform(t, c.s, c.w, c.k)
		for trial := range 3 {
			n := c.s + trial
			variants := map[string]*set.Family{"all": relabel(r, base, n)}
			drop := relabel(r, base, n)
			drop.Quorums = drop.Quorums[1:]
			variants["drop one"] = drop
			dup := relabel(r, base, n)
			dup.Quorums = append(dup.Quorums[1:], *dup.Quorums[2].Clone())
			variants["one duplicated"] = dup
			if n > c.s {
				grow := relabel(r, base, n)
				// A node outside the support joins one quorum: it stays a
				// k-arbiter, of another shape.
				var out int
				sup := support(grow)
				for out = 0; out < n; out++ {
					if !contains(sup, out) {
						break
					}
				}
				grow.Quorums[0].Add(out)
				variants["one grown"] = grow
			}
			for name, f := range variants {
				want, err := decideWith(ctx, f, useSAT)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Decide(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if got.ClosedForm != (name == "all") {
					t.Errorf("%v %s: closed form %v", c, name, got.ClosedForm)
				}
				if got.Nondominated != want.Nondominated {
					t.Fatalf("%v %s: nondominated %v, the solver alone says %v", c, name, got.Nondominated, want.Nondominated)
				}
				if !got.Nondominated {
					if err := CheckWitness(ctx, f, got.Witness); err != nil {
						t.Fatalf("%v %s: witness %v: %v", c, name, got.Witness, err)
					}
					if got.Smallest && got.Witness.Len() > want.Witness.Len() {
						t.Fatalf("%v %s: 'smallest' witness of %d nodes, the solver found %d", c, name, got.Witness.Len(), want.Witness.Len())
					}
				}
			}
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The constructions, relabelled at random, get the same verdict from every
// engine set as from the solver alone, with witnesses that check.
func TestEnginesOnConstructions(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	var fams []*set.Family
	for _, q := range []int{2, 3, 4, 5} {
		f, err := construct.ProjectivePlane(q)
		if err != nil {
			t.Fatal(err)
		}
		fams = append(fams, f)
	}
	for _, g := range [][3]int{{3, 3, 0}, {4, 4, 0}, {3, 4, 10}, {5, 5, 23}} {
		f, err := construct.Grid(g[0], g[1], g[2])
		if err != nil {
			t.Fatal(err)
		}
		fams = append(fams, f)
	}
	for _, q := range []int{3, 5, 7} {
		f, err := construct.Billiard(q)
		if err != nil {
			t.Fatal(err)
		}
		fams = append(fams, f)
	}
	fams = append(fams, join(pg(t, 2), 0, pg(t, 2)), uniform(t, 7, 4, 1), uniform(t, 8, 5, 1), uniform(t, 10, 8, 2))
	for _, ak := range [][2]int{{2, 2}, {3, 2}} {
		f, err := construct.Cube(ak[0], ak[1], 0)
		if err != nil {
			t.Fatal(err)
		}
		fams = append(fams, f)
	}
	for i, f := range fams {
		g := relabel(r, f, f.N)
		want, err := decideWith(ctx, g, useSAT)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range engineSets {
			got, err := decideWith(ctx, g, e.use|useStructure)
			if err != nil {
				t.Fatalf("%d %s: %v", i, e.name, err)
			}
			if got.Nondominated != want.Nondominated {
				t.Fatalf("family %d (n=%d k=%d) %s: nondominated %v, solver %v", i, g.N, g.K, e.name, got.Nondominated, want.Nondominated)
			}
			if !got.Nondominated {
				if err := CheckWitness(ctx, g, got.Witness); err != nil {
					t.Fatalf("family %d %s: %v", i, e.name, err)
				}
			}
		}
	}
}

// The answer of Decide does not depend on timing: the same family gives
// the same witness every time (the race returns MMCS's answer when it ends
// within its work limit, else the solver's).
func TestDecideDeterministic(t *testing.T) {
	ctx := context.Background()
	for _, f := range []*set.Family{pg(t, 7), grid(9, 9), pg(t, 31)} {
		first, err := Decide(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			again, err := Decide(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(again.Witness) != fmt.Sprint(first.Witness) {
				t.Fatalf("n=%d: witness %v, then %v", f.N, first.Witness, again.Witness)
			}
		}
	}
}

// A context cancelled before the call stops every engine with its error.
func TestEnginesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := pg(t, 7)
	g := uniform(t, 12, 7, 1)
	g.Quorums = g.Quorums[1:] // not a threshold: no closed form
	for _, e := range engineSets {
		for _, h := range []*set.Family{f, g} {
			if _, err := decideWith(ctx, h, e.use); err != context.Canceled {
				t.Errorf("%s n=%d: err %v, want context.Canceled", e.name, h.N, err)
			}
		}
	}
}

// thresholdOnSupport recognises exactly the families of all w-subsets.
func TestThresholdOnSupport(t *testing.T) {
	f := uniform(t, 6, 3, 1)
	if sup, w, ok := thresholdOnSupport(f); !ok || w != 3 || len(sup) != 6 {
		t.Fatalf("all 3-subsets of 6: %v %d %v", sup, w, ok)
	}
	g := f.Clone()
	g.Quorums[4] = *set.Of(0, 1, 2) // a duplicate in place of another
	if _, _, ok := thresholdOnSupport(g); ok {
		t.Error("a family with a repeated subset recognised")
	}
	h := f.Clone()
	h.Quorums[0].Add(5)
	if _, _, ok := thresholdOnSupport(h); ok {
		t.Error("a family with a 4-set recognised")
	}
	for _, c := range []struct{ n, r, m int }{{6, 3, 20}, {21, 11, 352716}, {5, 0, 1}, {3, 4, 0}} {
		if !binomialEquals(c.n, c.r, c.m) || binomialEquals(c.n, c.r, c.m+1) {
			t.Errorf("binomialEquals(%d, %d, %d)", c.n, c.r, c.m)
		}
	}
}

// DisjointPair agrees with a check of every pair on random families, and
// the pair it names is disjoint.
func TestDisjointPairBruteForce(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := 2 + r.IntN(12)
		f := randomFamily(r, n, 1+r.IntN(12), 0.2+0.6*r.Float64())
		f = relabel(r, f, n+r.IntN(3))
		want := false
		for i := range f.Quorums {
			for j := i + 1; j < len(f.Quorums); j++ {
				if !set.Intersects(&f.Quorums[i], &f.Quorums[j]) {
					want = true
				}
			}
		}
		pair, decided, err := DisjointPair(ctx, f)
		if err != nil || !decided {
			t.Fatalf("%v: decided %v, err %v", f, decided, err)
		}
		if (pair != nil) != want {
			t.Fatalf("%v: pair %v, brute force disjoint %v", f, pair, want)
		}
		if pair != nil && set.Intersects(&f.Quorums[pair[0]], &f.Quorums[pair[1]]) {
			t.Fatalf("%v: quorums %v meet", f, pair)
		}
	}
	if _, decided, _ := DisjointPair(ctx, pg(t, 5)); decided {
		t.Error("PG(2,5), 31 nodes, decided by a table of 2^31 subsets")
	}
}

// Stopped before it has proved its witness smallest, DecideSmallest keeps
// the best witness and the lower bound it had: on the solver path the
// cover bound ⌈m/Δ⌉ (8 for PG(2,7): 57 lines, 8 through each point), on the
// plane path Bruen's bound (11 for q = 7). Pre-cancelled contexts: no race.
func TestSmallestPartial(t *testing.T) {
	f := pg(t, 7)
	r, err := Decide(context.Background(), f)
	if err != nil || r.Nondominated {
		t.Fatal(r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := improve(ctx, f, r.Witness)
	if err != context.Canceled || got == nil || !got.Partial || got.Smallest || got.LowerBound != 8 || !set.Equal(got.Witness, r.Witness) {
		t.Fatalf("solver path: %+v, %v", got, err)
	}
	got, err = smallestInPlane(ctx, f, asPlane(f), r.Witness)
	if err != context.Canceled || got == nil || !got.Partial || got.LowerBound != BruenBound(7) || !set.Equal(got.Witness, r.Witness) {
		t.Fatalf("plane path: %+v, %v", got, err)
	}
	if err := CheckWitness(context.Background(), f, got.Witness); err != nil {
		t.Fatal(err)
	}
	if got, err := DecideSmallest(ctx, f); err != context.Canceled || got != nil {
		t.Fatalf("cancelled before any witness: %+v, %v", got, err)
	}
}

// A count stopped early returns what it had counted, marked partial:
// cancelled after the first subtree (the progress callback cancels, so
// the point is fixed by the search, not by a clock), and out of memory.
func TestCountPartial(t *testing.T) {
	f := grid(6, 6)
	full, err := CountTransversals(context.Background(), f)
	if err != nil || full.Partial {
		t.Fatal(full, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := CountTransversalsOpt(ctx, f, Options{})
	if err != context.Canceled || !c.Partial || c.Total.Cmp(full.Total) > 0 {
		t.Fatalf("pre-cancelled: %+v, %v", c, err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	c, err = CountTransversalsOpt(ctx, f, Options{Progress: func(string, int64, int64) { cancel() }})
	if runtime.GOMAXPROCS(0) > 1 {
		if err != context.Canceled || !c.Partial || c.Total.Sign() == 0 || c.Total.Cmp(full.Total) >= 0 {
			t.Fatalf("cancelled after a subtree: %v of %v, %v", c.Total, full.Total, err)
		}
		for size, n := range c.BySize {
			if full.BySize[size] == nil || n.Cmp(full.BySize[size]) > 0 {
				t.Fatalf("size %d: %v, more than the full count %v", size, n, full.BySize[size])
			}
		}
	}
	// The 9×9 grid packs into 2,592 bytes (81 quorums and 81 nodes, two
	// words each way); a budget just above that leaves no room for the
	// search's second layer. A budget below it refuses at once.
	g := grid(9, 9)
	for _, budget := range []int64{2600, 1000} {
		c, err = CountTransversalsOpt(context.Background(), g, Options{MaxMemory: budget})
		if !errors.Is(err, set.ErrMemoryBudget) || c == nil || !c.Partial {
			t.Fatalf("count within %d bytes: %+v, %v", budget, c, err)
		}
		listed := 0
		err = TransversalsOpt(context.Background(), g, Options{MaxMemory: budget}, func(*set.Set) bool { listed++; return listed < 1000 })
		if !errors.Is(err, set.ErrMemoryBudget) {
			t.Fatalf("listing within %d bytes: %v after %d", budget, err, listed)
		}
	}
}

// race returns once its loser has stopped: here the solver, which only
// waits for its context, loses to MMCS on the majority of three; when
// race returns, the solver has returned too (it is cancelled, then waited
// for), and nothing runs on.
func TestRaceWaitsForLoser(t *testing.T) {
	f := set.NewFamily(3)
	for _, q := range [][]int{{0, 1}, {0, 2}, {1, 2}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	var returned atomic.Bool
	sat := func(ctx context.Context) (*set.Set, error) {
		<-ctx.Done()
		returned.Store(true)
		return nil, ctx.Err()
	}
	if _, err := race(context.Background(), f, newHyper(f), 0, sat); err != nil {
		t.Fatal(err)
	}
	if !returned.Load() {
		t.Error("race returned with the solver still running")
	}
}

// The solver starts only once MMCS has searched a 64th of its limit: on
// the Fano plane, which MMCS decides in a handful of nodes, a race with a
// large limit never calls it (its parse could not be stopped), and the
// verdict is MMCS's; with a limit of one node the solver does start.
func TestRaceStartsSolverLate(t *testing.T) {
	f := set.NewFamily(7)
	for _, q := range [][]int{{0, 1, 2}, {0, 3, 4}, {0, 5, 6}, {1, 3, 5}, {1, 4, 6}, {2, 3, 6}, {2, 4, 5}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	for _, c := range []struct {
		limit  uint64
		called bool
	}{{1 << 20, false}, {1, true}} {
		var called atomic.Bool
		sat := func(ctx context.Context) (*set.Set, error) {
			called.Store(true)
			<-ctx.Done()
			return nil, ctx.Err()
		}
		w, err := race(context.Background(), f, newHyper(f), c.limit, sat)
		if err != nil || w != nil {
			t.Fatalf("limit %d: witness %v, error %v; the Fano plane is nondominated", c.limit, w, err)
		}
		if called.Load() != c.called {
			t.Errorf("limit %d: solver called %v, want %v", c.limit, called.Load(), c.called)
		}
	}
}

package domination

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// joinPieces are small systems to join: coteries (the inner part of a
// join is one) and, as outer parts, any family.
func joinPieces(t *testing.T) []*set.Family {
	return []*set.Family{
		pg(t, 2),            // the Fano plane
		uniform(t, 5, 3, 1), // majority of 5
		uniform(t, 3, 2, 1), // majority of 3
		grid(2, 3),          // a dominated coterie
		grid(3, 3),          // another
		family(4, 1, []int{0, 1}, []int{0, 2}, []int{0, 3}, []int{1, 2, 3}),              // the wheel of 4
		family(5, 1, []int{0, 1, 2}, []int{0, 3}, []int{1, 3}, []int{2, 4}, []int{0, 4}), // not a coterie
	}
}

// countBySize returns c's counts as a slice indexed by size (n+1 long).
func countBySize(t testing.TB, c *TransversalCount, n int) []uint64 {
	t.Helper()
	out := make([]uint64, n+1)
	for s, k := range c.BySize {
		if s < 0 || s > n || !k.IsUint64() {
			t.Fatalf("count of size %d: %v", s, k)
		}
		out[s] = k.Uint64()
	}
	return out
}

// A join found in a list is counted from its parts, and the count by size
// is the one brute force finds over every subset.
func TestCountJoinBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	pieces := joinPieces(t)
	split := 0
	for i := range 300 {
		var outer *set.Family
		if r.IntN(3) == 0 {
			outer = randomFamily(r, 3+r.IntN(5), 2+r.IntN(8), 0.3+0.4*r.Float64())
		} else {
			outer = pieces[r.IntN(len(pieces))]
		}
		inner := pieces[r.IntN(len(pieces)-1)] // a coterie
		f := join(outer, r.IntN(outer.N), inner)
		if f.N > 18 || len(f.Quorums) == 0 {
			continue
		}
		if s, err := findJoin(context.Background(), f); err != nil {
			t.Fatal(err)
		} else if s != nil {
			split++
		}
		checkCountByBrute(t, fmt.Sprintf("case %d (%v)", i, f), f)
	}
	if split < 150 {
		t.Fatalf("a join was found in %d of the cases only: the split is hardly tested", split)
	}
}

// On joins of joins over 30 to 45 nodes, too many for brute force, the
// count by the parts (split again inside them) agrees with MMCS on the
// whole list.
func TestCountJoinAgainstMMCS(t *testing.T) {
	if testing.Short() {
		t.Skip("counts tens of thousands of transversals twice")
	}
	r := rand.New(rand.NewPCG(3, 9))
	pieces := joinPieces(t)
	for i := range 12 {
		f := pieces[r.IntN(len(pieces))]
		for f.N < 30 {
			p := pieces[r.IntN(len(pieces)-1)]
			if r.IntN(2) == 0 {
				f = join(f, r.IntN(f.N), p)
			} else if p.N > 1 {
				f = join(p, r.IntN(p.N), f)
			}
		}
		if f.N > 45 || len(f.Quorums) > 20000 {
			continue
		}
		s, err := findJoinWork(context.Background(), f, countJoinWork)
		if err != nil {
			t.Fatal(err)
		}
		if s == nil {
			t.Fatalf("case %d: no join found in a join of %d nodes", i, f.N)
		}
		counts, err := mmcsSearch(context.Background(), newHyper(f), nil, autoEngine)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]uint64, f.N+1)
		copy(want, counts)
		c, err := CountTransversals(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if got := countBySize(t, c, f.N); !slices.Equal(got, want) {
			t.Fatalf("case %d (%d nodes, %d quorums): by the parts %v, MMCS %v", i, f.N, len(f.Quorums), got, want)
		}
	}
}

// A count of a join stopped at once returns a partial count, a lower
// bound, with the context's error.
func TestCountJoinStopped(t *testing.T) {
	f := join(join(grid(3, 3), 4, grid(3, 3)), 0, pg(t, 2))
	s, err := findJoin(context.Background(), f)
	if err != nil || s == nil {
		t.Fatalf("no join found: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := countJoin(ctx, f, s, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if c == nil || !c.Partial {
		t.Fatalf("count %+v, want a partial one", c)
	}
	full, err := CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if c.Total.Cmp(full.Total) > 0 {
		t.Fatalf("partial count %v above the full %v", c.Total, full.Total)
	}
}

// checkCountByBrute checks that CountTransversals counts, size by size,
// the minimal transversals of f that brute force finds, and in full.
func checkCountByBrute(t *testing.T, name string, f *set.Family) {
	t.Helper()
	want := make([]uint64, f.N+1)
	for _, m := range bruteMinimalTransversals(f) {
		want[bits.OnesCount32(m)]++
	}
	c, err := CountTransversals(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if got := countBySize(t, c, f.N); !slices.Equal(got, want) || c.Partial {
		t.Fatalf("%s: count by size %v (partial %v), brute force %v", name, got, want, c.Partial)
	}
}

// Long lists (at least probeMin quorums, repeats and non-minimal ones
// kept) are first counted by a probe on one core, which ends on these;
// the counts are those brute force finds.
func TestCountLongList(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force over 2^16 sets of thousands of quorums")
	}
	r := rand.New(rand.NewPCG(8, 1))
	for i, p := range []float64{0.5, 0.15} {
		checkCountByBrute(t, fmt.Sprintf("case %d", i), testsys.Family(r, 16, probeMin+100, p))
	}
	// A dominated join of thresholds, 4,732 quorums on 17 nodes.
	checkCountByBrute(t, "join of thresholds", join(uniform(t, 9, 6, 1), 0, uniform(t, 9, 6, 1)))
}

// joinBench is a join of small systems over 33 nodes: the Fano plane,
// with grids of 3×3 and a majority of 5 put in for nodes, again and again.
func joinBench(t testing.TB) *set.Family {
	f := join(pg(t, 2), 0, grid(3, 3))
	f = join(f, 3, uniform(t, 5, 3, 1))
	f = join(f, 8, pg(t, 2))
	f = join(f, 14, grid(3, 3))
	return f
}

// The count of a join split into its parts; checked against MMCS on the
// whole list, counted once.
func BenchmarkCountTransversalsJoin(b *testing.B) {
	f := joinBench(b)
	counts, err := mmcsSearch(context.Background(), newHyper(f), nil, autoEngine)
	if err != nil {
		b.Fatal(err)
	}
	want := make([]uint64, f.N+1)
	copy(want, counts)
	if s, err := findJoin(context.Background(), f); err != nil || s == nil {
		b.Fatalf("no join found (%v)", err)
	}
	defer reportCPU(b)()
	for b.Loop() {
		c, err := CountTransversals(context.Background(), f)
		if err != nil {
			b.Fatal(err)
		}
		if got := countBySize(b, c, f.N); !slices.Equal(got, want) {
			b.Fatalf("by the parts %v, MMCS %v", got, want)
		}
	}
}

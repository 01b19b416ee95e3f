package domination

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// plainMMCS lists the minimal transversals of f in the order of the
// plain MMCS search, written for clarity: branch on the uncovered edge
// with the fewest candidates (the first on a tie, the first with at most
// one), its candidates in increasing order, each child keeping the
// earlier ones as candidates, and a child kept only if every vertex of S
// still has an edge of its own. The engines count leaves in bulk and
// prune differently; they must list the same sets in the same order.
func plainMMCS(f *set.Family) [][]int {
	h := newHyper(f)
	var out [][]int
	cand := set.MakeWords(h.n)
	cand.Fill(h.n)
	var s []int
	meets := func(e int, t []int) int { // how many of t are in edge e
		k := 0
		for _, v := range t {
			if h.edge(e).Has(v) {
				k++
			}
		}
		return k
	}
	critical := func(t []int) bool {
		for _, u := range t {
			own := false
			for e := range h.m {
				if h.edge(e).Has(u) && meets(e, t) == 1 {
					own = true
					break
				}
			}
			if !own {
				return false
			}
		}
		return true
	}
	var rec func()
	rec = func() {
		best, bestC := -1, h.n+1
		for e := range h.m {
			if meets(e, s) > 0 {
				continue
			}
			if n := h.edge(e).AndLen(cand); n < bestC {
				best, bestC = e, n
				if n <= 1 {
					break
				}
			}
		}
		if best < 0 {
			out = append(out, slices.Clone(s))
			return
		}
		var br []int
		for v := range h.n {
			if h.edge(best).Has(v) && cand.Has(v) {
				br = append(br, v)
				cand.Remove(v)
			}
		}
		for _, v := range br {
			s = append(s, v)
			if critical(s) {
				rec()
			}
			s = s[:len(s)-1]
			cand.Add(v)
		}
	}
	rec()
	return out
}

var engineKinds = []engineKind{autoEngine, twoWords, wideWords}

// listed runs one engine kind over the whole of f on one core, listing.
func listed(t *testing.T, h *hyper, kind engineKind) ([][]int, []uint64) {
	t.Helper()
	var got [][]int
	e := newEngine(h, mmcsOut{ctx: context.Background(), visit: func(s []int) bool {
		got = append(got, slices.Clone(s))
		return true
	}}, kind)
	runRoot(h, e)
	if err := e.stats().err; err != nil {
		t.Fatal(err)
	}
	return got, e.stats().counts
}

// counted runs one engine kind over the whole of f on one core, counting.
func counted(t *testing.T, h *hyper, kind engineKind) []uint64 {
	t.Helper()
	e := newEngine(h, mmcsOut{ctx: context.Background()}, kind)
	runRoot(h, e)
	if err := e.stats().err; err != nil {
		t.Fatal(err)
	}
	return e.stats().counts
}

func runRoot(h *hyper, e mmcsEngine) {
	root := set.MakeWords(h.n)
	root.Fill(h.n)
	e.load(nil, root)
	e.run()
}

// sizesOf counts sets by size.
func sizesOf(n int, sets [][]int) []uint64 {
	c := make([]uint64, n+1)
	for _, s := range sets {
		c[len(s)]++
	}
	return c
}

// testFamilies returns random families (some over more than 64 nodes
// or quorums, for the two-word engine), grids and planes.
func testFamilies(t *testing.T) []*set.Family {
	r := rand.New(rand.NewPCG(23, 5))
	var fams []*set.Family
	for range 150 {
		n := 1 + r.IntN(16)
		fams = append(fams, randomFamily(r, n, 1+r.IntN(30), 0.1+0.5*r.Float64()))
	}
	for range 10 {
		// Over two words: a random family spread over up to 128 nodes
		// with a star that pushes the quorums past 64.
		f := disjointUnion(star(60+r.IntN(10)), randomFamily(r, 8+r.IntN(6), 4+r.IntN(10), 0.2+0.3*r.Float64()))
		fams = append(fams, relabel(r, f, min(128, f.N+r.IntN(30))))
	}
	fams = append(fams, grid(3, 3), grid(4, 4), grid(3, 5), grid(5, 5), pg(t, 2), pg(t, 3))
	return fams
}

// Every engine lists the minimal transversals in the plain search's
// order, and its count (the leaves added up in bulk) equals the listing
// by size; for at most 16 nodes both equal brute force.
func TestEnginesPlainOrderAndBulkCount(t *testing.T) {
	for i, f := range testFamilies(t) {
		want := plainMMCS(f)
		h := newHyper(f)
		for _, kind := range engineKinds {
			if kind == twoWords && !fits2(h) {
				continue
			}
			got, listCounts := listed(t, h, kind)
			if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
				t.Fatalf("family %d (n=%d m=%d) engine %d: listed\n%v\nthe plain search lists\n%v", i, h.n, h.m, kind, got, want)
			}
			bySize := sizesOf(h.n, want)
			if !slices.Equal(listCounts, bySize) {
				t.Fatalf("family %d engine %d: listing counts %v, want %v", i, kind, listCounts, bySize)
			}
			if c := counted(t, h, kind); !slices.Equal(c, bySize) {
				t.Fatalf("family %d (n=%d m=%d) engine %d: counted %v, listed %v", i, h.n, h.m, kind, c, bySize)
			}
		}
		if f.N <= 16 {
			bySize := make([]uint64, f.N+1)
			for _, m := range bruteMinimalTransversals(f) {
				bySize[bits.OnesCount32(m)]++
			}
			if !slices.Equal(sizesOf(f.N, want), bySize) {
				t.Fatalf("family %d: the plain search finds %v by size, brute force %v", i, sizesOf(f.N, want), bySize)
			}
		}
	}
}

// The r×r grid with k diagonal nodes forced has 2·r^(r−k) − (r−k)!
// minimal transversals: brute force agrees for r ≤ 4, and every engine
// (counting in bulk, on one core and split over every core) for grids up
// to 9×9, where the two-word engine's sets span both words.
func TestGridForced(t *testing.T) {
	for r := 1; r <= 4; r++ {
		for k := range r + 1 {
			f := gridForced(r, k)
			if got, want := uint64(len(bruteMinimalTransversals(f))), gridForcedCount(r, k); got != want {
				t.Fatalf("grid %dx%d, %d forced: brute force %d, formula %d", r, r, k, got, want)
			}
		}
	}
	for r := 2; r <= 9; r++ {
		for k := range r + 1 {
			want := gridForcedCount(r, k)
			if want > 2_000_000 {
				continue
			}
			f := gridForced(r, k)
			h := newHyper(f)
			t.Run(fmt.Sprintf("%dx%d-forced%d", r, r, k), func(t *testing.T) {
				for _, kind := range engineKinds {
					if kind == wideWords && want > 200_000 {
						continue // the word-vector engine is the slow one
					}
					c := counted(t, h, kind)
					if c[r] != want || sum(c) != want {
						t.Fatalf("engine %d: %v, want %d of size %d", kind, c, want, r)
					}
					split, err := mmcsSearch(context.Background(), h, nil, kind)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(split, c) {
						t.Fatalf("engine %d: split over the cores %v, on one core %v", kind, split, c)
					}
				}
			})
		}
	}
}

func sum(c []uint64) uint64 {
	var s uint64
	for _, k := range c {
		s += k
	}
	return s
}

package domination

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// bruteMinimalTransversals lists, as sorted masks, every minimal
// transversal of a family over n ≤ 20 nodes.
func bruteMinimalTransversals(f *set.Family) []uint32 {
	qs := masks(f)
	hits := func(s uint32) bool {
		for _, q := range qs {
			if q&s == 0 {
				return false
			}
		}
		return true
	}
	var out []uint32
	for s := uint32(0); s < 1<<f.N; s++ {
		if !hits(s) {
			continue
		}
		minimal := true
		for w := s; w != 0; w &= w - 1 {
			if hits(s &^ (w & -w)) {
				minimal = false
				break
			}
		}
		if minimal {
			out = append(out, s)
		}
	}
	return out
}

func listMasks(t *testing.T, f *set.Family, kind engineKind) ([]uint32, []uint64) {
	t.Helper()
	var got []uint32
	counts, err := mmcsSearch(context.Background(), newHyper(f), func(s []int) bool {
		var m uint32
		for _, v := range s {
			m |= 1 << v
		}
		got = append(got, m)
		return true
	}, kind)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, counts
}

// The three MMCS engines list exactly the minimal transversals that brute force
// finds, each once, and the parallel count agrees.
func TestTransversalsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	for i := range 1500 {
		n := 1 + r.IntN(14)
		f := randomFamily(r, n, 1+r.IntN(24), 0.1+0.5*r.Float64())
		want := bruteMinimalTransversals(f)
		for _, kind := range []engineKind{autoEngine, twoWords, wideWords} {
			got, counts := listMasks(t, f, kind)
			if !slices.Equal(got, want) {
				t.Fatalf("case %d (engine %d): %v\nMMCS %v\nbrute %v", i, kind, f, got, want)
			}
			bySize := make([]uint64, n+1)
			for _, m := range want {
				bySize[bits.OnesCount32(m)]++
			}
			if !slices.Equal(counts, bySize) {
				t.Fatalf("case %d: counts %v, want %v", i, counts, bySize)
			}
		}
		c, err := CountTransversals(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if c.Total.Int64() != int64(len(want)) {
			t.Fatalf("case %d: CountTransversals = %v, want %d", i, c.Total, len(want))
		}
	}
}

// Reference counts, as Murakami and Uno's MMCS gives them:
// PG(2,5) has 506,106 minimal transversals, the smallest of size 6 (a line);
// the r×r grid has 2·r^r − r! (sets meeting every row or every column, minimally).
func TestCountTransversalsKnown(t *testing.T) {
	for _, tt := range []struct {
		name     string
		f        *set.Family
		total    int64
		smallest int
	}{
		{"PG(2,2)", pg(t, 2), 7, 3},
		{"PG(2,5)", pg(t, 5), 506106, 6},
		{"grid 5x5", grid(5, 5), 2*3125 - 120, 5},
		{"grid 7x7", grid(7, 7), 1642046, 7},
		{"grid 8x8", grid(8, 8), 33514112, 8},
		{"threshold 3 of 7", set.NewThreshold(7, 3), 21, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := CountTransversals(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.Int64() != tt.total || c.Smallest != tt.smallest {
				t.Errorf("count %v smallest %d, want %d and %d", c.Total, c.Smallest, tt.total, tt.smallest)
			}
		})
	}
}

// The word-vector engine, forced on a 91-node plane, agrees with the
// single-word engine's answer on a smaller one scaled up: PG(2,9)'s lines
// are themselves minimal transversals, and listing stops on request.
func TestTransversalsStop(t *testing.T) {
	f := pg(t, 9)
	n := 0
	err := Transversals(context.Background(), f, func(s *set.Set) bool {
		if !isTransversal(f, s) {
			t.Fatalf("%v is not a transversal", s)
		}
		n++
		return n < 1000
	})
	if err != nil || n != 1000 {
		t.Fatalf("stopped after %d, err %v", n, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CountTransversals(ctx, pg(t, 7)); err == nil {
		t.Error("cancelled count returned no error")
	}
}

// BenchmarkCountTransversals times the counts on every core (cpu-ns/op
// adds up the cores) to compare with Murakami and Uno's C MMCS and Uno's
// SHD, and checks them (the same counts MMCS gives). The 9×9 grid (81
// nodes and quorums) runs on the two-word engine:
//
//	go test ./domination -run '^$' -bench 'CountTransversals/grid9x9' -benchtime 1x
func BenchmarkCountTransversals(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
		want int64
	}{{"PG(2,5)", pg(b, 5), 506106}, {"grid7x7", grid(7, 7), 1642046}, {"grid8x8", grid(8, 8), 33514112}, {"grid9x9", grid(9, 9), 774478098}} {
		b.Run(bb.name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				c, err := CountTransversals(context.Background(), bb.f)
				if err != nil {
					b.Fatal(err)
				}
				if c.Total.Int64() != bb.want {
					b.Fatalf("%s: %v minimal transversals, want %d", bb.name, c.Total, bb.want)
				}
			}
		})
	}
}

// disjointUnion puts the families side by side on disjoint nodes.
func disjointUnion(fams ...*set.Family) *set.Family {
	n := 0
	for _, f := range fams {
		n += f.N
	}
	g := set.NewFamily(n)
	off := 0
	for _, f := range fams {
		for i := range f.Quorums {
			q := set.New(n)
			for v := range f.Quorums[i].All() {
				q.Add(off + v)
			}
			g.Add(q, set.NoOwner)
		}
		off += f.N
	}
	return g
}

// star returns the edges {0, i}, i = 1..leaves: two minimal transversals,
// {0} and the leaves.
func star(leaves int) *set.Family {
	f := set.NewFamily(leaves + 1)
	for i := 1; i <= leaves; i++ {
		f.Add(set.Of(0, i), set.NoOwner)
	}
	return f
}

// Above 64 nodes and 64 edges the two-word engine and the word-vector
// engine count the same transversals by size, and the listing agrees with
// the count. The families are disjoint unions, relabelled at random, whose
// minimal transversals are the products of their parts' (a star, planes,
// random families, all counted apart by the single-word engine): a check
// independent of both engines.
func TestTwoWordEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for i := range 12 {
		parts := []*set.Family{star(56 + r.IntN(30)), pg(t, 2+i%2)}
		for range 1 + r.IntN(2) {
			parts = append(parts, randomFamily(r, 6+r.IntN(8), 5+r.IntN(15), 0.2+0.3*r.Float64()))
		}
		// The product of the parts' counts by size: a convolution.
		want := []uint64{1}
		for _, p := range parts {
			c, err := mmcsSearch(context.Background(), newHyper(p), nil, autoEngine)
			if err != nil {
				t.Fatal(err)
			}
			next := make([]uint64, len(want)+len(c))
			for a, x := range want {
				for b, y := range c {
					next[a+b] += x * y
				}
			}
			want = next
		}
		f := disjointUnion(parts...)
		f = relabel(r, f, f.N)
		h := newHyper(f)
		if !fits2(h) || h.n <= 64 || h.m <= 64 {
			t.Fatalf("family %d: n=%d m=%d, not the two-word engine's range above one word", i, h.n, h.m)
		}
		want = want[:h.n+1]
		for _, kind := range []engineKind{twoWords, wideWords} {
			got, err := mmcsSearch(context.Background(), h, nil, kind)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("family %d (n=%d m=%d) engine %d: %v, product of the parts %v", i, h.n, h.m, kind, got, want)
			}
		}
		listed := make([]uint64, h.n+1)
		if _, err := mmcsSearch(context.Background(), h, func(s []int) bool {
			listed[len(s)]++
			return true
		}, twoWords); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(listed, want) {
			t.Fatalf("family %d: listing gives %v, want %v", i, listed, want)
		}
	}
}

// MinimalTransversals yields the plain search's sequence (a threshold
// family: the (n−w+1)-subsets in lexicographic order), stops when the
// range stops, and ends with the error when the search fails.
func TestMinimalTransversalsSeq(t *testing.T) {
	ctx := context.Background()
	for _, f := range []*set.Family{pg(t, 3), grid(4, 4), grid(3, 5)} {
		var got [][]int
		for s, err := range MinimalTransversals(ctx, f, Options{}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s.Elements())
		}
		want := plainMMCS(f)
		for _, w := range want {
			slices.Sort(w)
		}
		if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
			t.Fatalf("%v: %v, the plain search gives %v", f, got, want)
		}
	}
	var subsets []uint32
	for s, err := range MinimalTransversals(ctx, set.NewThreshold(6, 3), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		var m uint32
		for v := range s.All() {
			m |= 1 << v
		}
		subsets = append(subsets, m)
	}
	brute := bruteMinimalTransversals(uniform(t, 6, 3, 1))
	elements := func(m uint32) []int {
		var e []int
		for ; m != 0; m &= m - 1 {
			e = append(e, bits.TrailingZeros32(m))
		}
		return e
	}
	if len(subsets) != len(brute) || !slices.IsSortedFunc(subsets, func(a, b uint32) int {
		return slices.Compare(elements(a), elements(b))
	}) {
		t.Fatalf("threshold 3 of 6: %v, brute force has %d", subsets, len(brute))
	}
	n := 0
	for range MinimalTransversals(ctx, grid(5, 5), Options{}) {
		if n++; n == 3 {
			break
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	var last error
	listed := 0
	for s, err := range MinimalTransversals(done, grid(7, 7), Options{}) {
		if last != nil {
			t.Fatal("the sequence went on after its error")
		}
		if err != nil {
			if s != nil {
				t.Fatalf("error %v with a set %v", err, s)
			}
			last = err
			continue
		}
		listed++
	}
	if !errors.Is(last, context.Canceled) || listed >= 1642046 {
		t.Fatalf("cancelled: %d listed, error %v", listed, last)
	}
	bad := set.NewFamily(3)
	bad.K = 0
	bad.Add(set.Of(0, 1), set.NoOwner)
	for s, err := range MinimalTransversals(ctx, bad, Options{}) {
		if err == nil || s != nil {
			t.Fatalf("a family with k = 0: %v, %v", s, err)
		}
	}
}

// A count tells its set.Progress how many subtrees (pieces) are done,
// up to all of them.
func TestCountProgress(t *testing.T) {
	ctx := context.Background()
	f := grid(5, 5)
	type report struct {
		stage       string
		done, total int64
	}
	var mu sync.Mutex
	var got []report
	rec := func(stage string, done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, report{stage, done, total})
	}
	check := func(stage string) {
		t.Helper()
		if len(got) == 0 {
			t.Fatalf("%s: no progress reported", stage)
		}
		maxDone := int64(0)
		for _, r := range got {
			if r.stage != stage || r.done < 1 || r.done > r.total || r.total != got[0].total {
				t.Fatalf("%s: reported %+v", stage, r)
			}
			maxDone = max(maxDone, r.done)
		}
		if maxDone != got[0].total {
			t.Fatalf("%s: %d of %d done at the end", stage, maxDone, got[0].total)
		}
	}
	if runtime.GOMAXPROCS(0) > 1 {
		if _, err := CountTransversalsOpt(ctx, f, Options{Progress: rec}); err != nil {
			t.Fatal(err)
		}
		check("subtrees")
	}
	got = nil
	if _, err := CountTransversalPieces(ctx, f, func(int) bool { return true }, nil, Options{Progress: rec}, nil); err != nil {
		t.Fatal(err)
	}
	check("pieces")
}

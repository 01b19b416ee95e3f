package domination

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// gridPlus returns the r×c grid with two forced nodes added (each the only
// node of a quorum of its own), relabelled at random over 128 nodes:
// the grid's minimal transversals, each with the two forced nodes, over
// more than 64 nodes and quorums, spread over two machine words.
func gridPlus(r, c int) *set.Family {
	g := grid(r, c)
	f := set.NewFamily(r*c + 2)
	for i := range g.Quorums {
		f.Add(g.Quorums[i].Clone(), set.NoOwner)
	}
	f.Add(set.Of(r*c), set.NoOwner)
	f.Add(set.Of(r*c+1), set.NoOwner)
	return relabel(rand.New(rand.NewPCG(uint64(r), uint64(c))), f, 128)
}

// gridForced returns the r×r grid with the first k nodes of its diagonal
// forced (each the only node of a quorum of its own). Its minimal
// transversals are the forced nodes together with one node in each other
// row, or one in each other column, from any of the r columns (rows):
// 2·r^(r−k) − (r−k)! of them, the sets that are both counted twice.
func gridForced(r, k int) *set.Family {
	f := grid(r, r)
	for i := range k {
		f.Add(set.Of(i*r+i), set.NoOwner)
	}
	return f
}

// gridForcedCount is the number of minimal transversals of gridForced(r, k).
func gridForcedCount(r, k int) uint64 {
	p, fact := uint64(1), uint64(1)
	for i := range r - k {
		p *= uint64(r)
		fact *= uint64(i + 1)
	}
	return 2*p - fact
}

// BenchmarkMMCSEngine times one engine on one core (no split): the
// single-word engine on the 8×8 grid and the two-word engine on the 8×8
// grid spread over two words; each run checks the count.
//
//	go test ./domination -run '^$' -bench 'MMCSEngine' -count 6
func BenchmarkMMCSEngine(b *testing.B) {
	for _, bb := range []struct {
		name string
		f    *set.Family
		kind engineKind
		want uint64
	}{
		{"grid8x8/one-word", grid(8, 8), autoEngine, 33514112},
		{"grid8x8+2/two-words", gridPlus(8, 8), twoWords, 33514112},
		{"grid7x7+2/two-words", gridPlus(7, 7), twoWords, 1642046},
		{"grid9x9-forced2/two-words", gridForced(9, 2), twoWords, gridForcedCount(9, 2)},
		{"grid9x9-forced3/two-words", gridForced(9, 3), twoWords, gridForcedCount(9, 3)},
		{"grid9x9-forced3/word-vectors", gridForced(9, 3), wideWords, gridForcedCount(9, 3)},
	} {
		h := newHyper(bb.f)
		b.Run(bb.name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				e := newEngine(h, mmcsOut{ctx: context.Background()}, bb.kind)
				root := make(set.Words, h.nw)
				root.Fill(h.n)
				e.load(nil, root)
				e.run()
				var total uint64
				for _, k := range e.stats().counts {
					total += k
				}
				if total != bb.want {
					b.Fatalf("%d minimal transversals, want %d", total, bb.want)
				}
			}
		})
	}
}

// reportCPU starts measuring the process's CPU time; the function it
// returns, deferred, reports it per operation as cpu-ns/op (on a machine
// shared with other work the wall time ns/op includes waiting).
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, ok2 := cpuTime(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

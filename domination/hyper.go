package domination

import (
	"math"

	"github.com/coterie-dev/coterie/set"
)

// hyper is a family packed for the hot loops: edge e's vertices are row e
// of a [set.Packed], and star(v) lists the edges that contain vertex v.
type hyper struct {
	n, m   int
	nw, mw int
	p      *set.Packed
}

// newHyper packs the quorums of an explicit family.
func newHyper(f *set.Family) *hyper {
	p := set.Pack(f.N, f.Quorums)
	// The containing table is what every search here walks; it takes no
	// more than the rows themselves up to a factor of 64, so it is built
	// whatever its size.
	_ = p.BuildContaining(math.MaxInt64)
	return &hyper{n: p.N(), m: p.Len(), nw: set.WordsFor(p.N()), mw: set.WordsFor(p.Len()), p: p}
}

// edge returns edge e's vertices, and star the edges that contain vertex
// v; both share storage with h and must not be modified.
func (h *hyper) edge(e int) set.Words { return h.p.Row(e) }
func (h *hyper) star(v int) set.Words { return h.p.Containing(v) }

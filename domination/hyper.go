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
	// rows and stars hold the views of p that edge and star return, so
	// that the inner loops load a slice header instead of recomputing it.
	rows, stars []set.Words
}

// newHyper packs the quorums of an explicit family.
func newHyper(f *set.Family) *hyper {
	p := set.Pack(f.N, f.Quorums)
	// The containing table is what every search here walks; it takes no
	// more than the rows themselves up to a factor of 64, so it is built
	// whatever its size.
	_ = p.BuildContaining(math.MaxInt64)
	h := &hyper{n: p.N(), m: p.Len(), nw: set.WordsFor(p.N()), mw: set.WordsFor(p.Len()), p: p}
	h.rows = make([]set.Words, h.m)
	for e := range h.rows {
		h.rows[e] = p.Row(e)
	}
	h.stars = make([]set.Words, h.n)
	for v := range h.stars {
		h.stars[v] = p.Containing(v)
	}
	return h
}

// edge returns edge e's vertices, and star the edges that contain vertex
// v; both share storage with h and must not be modified.
func (h *hyper) edge(e int) set.Words { return h.rows[e] }
func (h *hyper) star(v int) set.Words { return h.stars[v] }

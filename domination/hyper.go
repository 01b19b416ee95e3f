package domination

import (
	"math/bits"

	"github.com/coterie-dev/coterie/set"
)

// hyper is a family packed into word-level bit vectors for the hot loops:
// edge e's vertices are edges[e*nw:(e+1)*nw], and the edges that contain
// vertex v are inc[v*mw:(v+1)*mw].
type hyper struct {
	n, m   int
	nw, mw int
	edges  []uint64
	inc    []uint64
}

func words(n int) int { return (n + 63) / 64 }

// newHyper packs the quorums of an explicit family.
func newHyper(f *set.Family) *hyper {
	h := &hyper{n: f.N, m: len(f.Quorums), nw: words(f.N), mw: words(len(f.Quorums))}
	h.edges = make([]uint64, h.m*h.nw)
	h.inc = make([]uint64, h.n*h.mw)
	for e := range f.Quorums {
		for v := range f.Quorums[e].All() {
			h.edges[e*h.nw+v/64] |= 1 << (v % 64)
			h.inc[v*h.mw+e/64] |= 1 << (e % 64)
		}
	}
	return h
}

func (h *hyper) edge(e int) []uint64 { return h.edges[e*h.nw : (e+1)*h.nw] }
func (h *hyper) star(v int) []uint64 { return h.inc[v*h.mw : (v+1)*h.mw] }

func popcount(a []uint64) int {
	c := 0
	for _, w := range a {
		c += bits.OnesCount64(w)
	}
	return c
}

func isZero(a []uint64) bool {
	for _, w := range a {
		if w != 0 {
			return false
		}
	}
	return true
}

func setBit(a []uint64, i int)      { a[i/64] |= 1 << (i % 64) }
func hasBit(a []uint64, i int) bool { return a[i/64]&(1<<(i%64)) != 0 }

// fill sets the first n bits of a and clears the rest.
func fill(a []uint64, n int) {
	for i := range a {
		switch {
		case (i+1)*64 <= n:
			a[i] = ^uint64(0)
		case i*64 < n:
			a[i] = 1<<(n-i*64) - 1
		default:
			a[i] = 0
		}
	}
}

// toSet converts a vertex bit vector to a set.Set.
func toSet(a []uint64, n int) *set.Set {
	s := set.New(n)
	for i, w := range a {
		for w != 0 {
			s.Add(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return s
}

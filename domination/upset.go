package domination

import (
	"context"
	"errors"
	"math/bits"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// maxUpsetNodes bounds the support of the families decided by the table
// of every subset: 2^26 bits are 8 MiB, built in 26 passes over 2^20 words.
const maxUpsetNodes = 26

// upset is the table, for every subset X of a small support S (bit i of X
// standing for node sup[i]), of whether X contains a quorum: the up-closure
// of the quorums. A coterie is dominated iff some X and its complement in
// S both contain no quorum (Theorem 1: X = H). The table is exact, so the
// first such X in numeric order, or the one with fewest nodes, comes with
// a proof that settles the question outright, without search.
type upset struct {
	sup   []int
	nbits int      // max(|S|, 6): at least one full word
	up    []uint64 // bit X of the table
}

// newUpset builds the table for f, a coterie whose support sup has at most
// maxUpsetNodes nodes. ctx is checked between passes.
func newUpset(ctx context.Context, f *set.Family, sup []int) (*upset, error) {
	u := &upset{sup: sup, nbits: max(len(sup), 6)}
	index := make(map[int]int, len(sup))
	for i, v := range sup {
		index[v] = i
	}
	u.up = make([]uint64, 1<<(u.nbits-6))
	for i := range f.Quorums {
		x := 0
		for v := range f.Quorums[i].All() {
			x |= 1 << index[v]
		}
		u.up[x>>6] |= 1 << (x & 63)
	}
	// Superset closure, one bit at a time: X contains a quorum if X minus
	// bit i does. Bits 0..5 live inside a word: shift the half whose bit i
	// is clear onto the half whose bit i is set.
	low := [6]uint64{0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
		0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff}
	for i, m := range low {
		for j, w := range u.up {
			u.up[j] = w | (w&m)<<(1<<i)
		}
	}
	for i := 6; i < u.nbits; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step := 1 << (i - 6)
		for j := range u.up {
			if j&step != 0 {
				u.up[j] |= u.up[j^step]
			}
		}
	}
	return u, nil
}

// free returns the word of subsets X = 64j..64j+63 such that neither X nor
// its complement contains a quorum. The complement of 64j+b in nbits bits
// is 64(W−1−j) + 63−b, bit-reversed within the mirror word.
func (u *upset) free(j int) uint64 {
	return ^u.up[j] & ^bits.Reverse64(u.up[len(u.up)-1-j])
}

// first returns the first witness in numeric order of X (a set of n
// nodes), or nil if the coterie is nondominated. smallest asks for one of
// fewest nodes instead (the first of that size).
func (u *upset) witness(ctx context.Context, n int, smallest bool) (*set.Set, error) {
	best, bestLen := -1, u.nbits+1
	for j := range u.up {
		if j%(1<<12) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for w := u.free(j); w != 0; w &= w - 1 {
			x := j<<6 | bits.TrailingZeros64(w)
			c := bits.OnesCount64(uint64(x) & (1<<len(u.sup) - 1))
			if c < bestLen {
				best, bestLen = x, c
			}
			if !smallest {
				break
			}
		}
		if best >= 0 && !smallest {
			break
		}
	}
	if best < 0 {
		return nil, nil
	}
	h := set.New(n)
	for i, v := range u.sup {
		if best&(1<<i) != 0 {
			h.Add(v)
		}
	}
	return h, nil
}

// DisjointPair looks for two disjoint quorums of the explicit family f by
// the table of every subset of its support, when the support has at most
// 26 nodes: some X contains a quorum and so does its complement. It
// returns their 0-based positions (nil if every two quorums meet) and
// decided = true, or decided = false when the support is too large for
// the table.
func DisjointPair(ctx context.Context, f *set.Family) (pair []int, decided bool, err error) {
	if f, err = explicitFamily(ctx, f); err != nil {
		return nil, false, err
	}
	if _, ok := quorum.ThresholdOf(construct.Form(f)); ok {
		return nil, false, nil
	}
	sup := support(f)
	if len(sup) > maxUpsetNodes {
		return nil, false, nil
	}
	u, err := newUpset(ctx, f, sup)
	if err != nil {
		return nil, false, err
	}
	for j := range u.up {
		both := u.up[j] & bits.Reverse64(u.up[len(u.up)-1-j])
		if both == 0 {
			continue
		}
		x := j<<6 | bits.TrailingZeros64(both)
		in := set.New(f.N)
		for i, v := range sup {
			if x&(1<<i) != 0 {
				in.Add(v)
			}
		}
		a, b := -1, -1
		for i := range f.Quorums {
			q := &f.Quorums[i]
			if a < 0 && set.Subset(q, in) {
				a = i
			} else if b < 0 && !set.Intersects(q, in) {
				b = i
			}
		}
		if a < 0 || b < 0 {
			return nil, false, errors.New("domination: internal error: the subset table names no disjoint quorums")
		}
		return []int{min(a, b), max(a, b)}, true, nil
	}
	return nil, true, nil
}

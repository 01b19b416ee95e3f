package set

import (
	"context"
	"slices"
)

// The sparse form's versions of the family operations that look at the
// quorums themselves. They give what the bit-set versions give, position
// for position.

// canonicalSparse is [Family.Canonical] for a sparse family: the order of
// [Compare] on bit sets is the lexicographic order of the sorted lists.
func (f *Family) canonicalSparse() {
	l := f.Sparse
	idx := make([]int32, l.Len())
	for i := range idx {
		idx[i] = int32(i)
	}
	key := func(i int32) int {
		if o := f.Owner(int(i)); o != NoOwner {
			return o
		}
		return f.N
	}
	slices.SortStableFunc(idx, func(i, j int32) int {
		if ki, kj := key(i), key(j); ki != kj {
			return ki - kj
		}
		return slices.Compare(l.At(int(i)), l.At(int(j)))
	})
	out := &Lists{nodes: make([]int32, 0, l.Nodes()), end: make([]int, 0, l.Len())}
	var owners []int
	if f.Owners != nil {
		owners = make([]int, 0, len(idx))
	}
	for n, i := range idx {
		if n > 0 {
			p := idx[n-1]
			if f.Owner(int(p)) == f.Owner(int(i)) && slices.Equal(l.At(int(p)), l.At(int(i))) {
				continue
			}
		}
		out.Append(l.At(int(i)))
		if owners != nil {
			owners = append(owners, f.Owners[i])
		}
	}
	f.Sparse, f.Owners = out, owners
}

// keepSparse drops the quorums marked in drop, with their owners, and
// returns how many it dropped.
func (f *Family) keepSparse(drop []bool) int {
	l := f.Sparse
	out := &Lists{}
	var owners []int
	dropped := 0
	for i, d := range drop {
		if d {
			dropped++
			continue
		}
		out.Append(l.At(i))
		if f.Owners != nil {
			owners = append(owners, f.Owners[i])
		}
	}
	if dropped > 0 {
		f.Sparse, f.Owners = out, owners
	}
	return dropped
}

// redundantSparse is [Family.Redundant] for a sparse family, with an
// inverted index and no bit set as wide as the ids. The quorums are taken
// by size, then by their lists, so that equal ones are neighbours (the
// first in the family's order stays, the others are redundant); each
// minimal quorum is filed under its node held by the fewest quorums, once
// every quorum of its size has been met, and a quorum Q is compared only
// with the quorums filed under its own nodes: those are strictly smaller,
// and a comparison walks P's nodes against a mark of Q's.
//
// Cost: a sort of the m quorums, then Σ over Q of the quorums filed under
// Q's nodes, times their sizes; as each quorum is filed once, under a
// rarely used node, that is near Σ|Q| for wide, sparse families (and
// O(m²) at worst, when every quorum's rarest node is shared by all).
func redundantSparse(ctx context.Context, f *Family, red []bool) error {
	l := f.Sparse
	m := l.Len()
	order := make([]int32, m)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if sa, sb := l.Size(int(a)), l.Size(int(b)); sa != sb {
			return sa - sb
		}
		if c := slices.Compare(l.At(int(a)), l.At(int(b))); c != 0 {
			return c
		}
		return int(a - b)
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	deg := f.Degrees()
	// bucket: node → minimal quorums filed under it, as a linked list
	// through next (one int32 a quorum, however they spread).
	head := make([]int32, f.N)
	for v := range head {
		head[v] = -1
	}
	next := make([]int32, m)
	mark := make([]int32, f.N) // k+1 on the nodes of the k-th quorum taken
	filed := false
	var pending []int32
	for k, i := range order {
		if k&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		q := l.At(int(i))
		if k > 0 {
			p := order[k-1]
			if len(q) != l.Size(int(p)) {
				for _, j := range pending {
					key := int32(-1)
					for _, v := range l.At(int(j)) {
						if key < 0 || deg[v] < deg[key] {
							key = v
						}
					}
					next[j], head[key] = head[key], j
					filed = true
				}
				pending = pending[:0]
			} else if slices.Equal(q, l.At(int(p))) {
				red[i] = true
				continue
			}
		}
		if filed {
			stamp := int32(k + 1)
			for _, v := range q {
				mark[v] = stamp
			}
		found:
			for _, v := range q {
				for j := head[v]; j >= 0; j = next[j] {
					in := true
					for _, u := range l.At(int(j)) {
						if mark[u] != stamp {
							in = false
							break
						}
					}
					if in {
						red[i] = true
						break found
					}
				}
			}
		}
		if !red[i] {
			pending = append(pending, i)
		}
	}
	return nil
}

// everySubsetSparse is [Family.EverySubset] for a sparse family.
func (f *Family) everySubsetSparse() (nodes []int, w int, ok bool) {
	l := f.Sparse
	w = l.Size(0)
	for i := range l.Len() {
		if l.Size(i) != w {
			return nil, 0, false
		}
	}
	for v, d := range f.Degrees() {
		if d > 0 {
			nodes = append(nodes, v)
		}
	}
	if !binomialIs(len(nodes), w, l.Len()) {
		return nil, 0, false
	}
	idx := make([]int32, l.Len())
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return slices.Compare(l.At(int(a)), l.At(int(b))) })
	for k := 1; k < len(idx); k++ {
		if slices.Equal(l.At(int(idx[k-1])), l.At(int(idx[k]))) {
			return nil, 0, false
		}
	}
	return nodes, w, true
}

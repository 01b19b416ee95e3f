package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// Maekawa's properties (ACM TOCS 3(2), 1985, Section 2), reported as
// information: (b) S_i contains i, (c) all quorums have the same size K,
// (d) every node lies in the same number D of quorums; and the
// projective-plane property, every two quorums meet in exactly one node
// (Section 3: the S_i meeting all of (a)–(d) with N = K(K−1)+1 are the lines
// of a finite projective plane).

func ownerCheck(f *set.Family, sys quorum.System) Check {
	c := Check{Name: "owner_in_quorum", Info: true, H: f.H}
	if _, ok := quorum.ThresholdOf(sys); ok {
		c.Detail = "a threshold family has no owners"
		return c
	}
	switch {
	case f.Owners == nil:
		c.Detail = "the quorums have no owners"
		return c
	}
	owns := make([]int, f.N)
	for i := range f.Len() {
		o := f.Owner(i)
		if o == set.NoOwner {
			c.Witness = &Witness{Quorums: []int{i}}
			c.Detail = "a quorum has no owner"
			return c
		}
		if !f.QuorumHas(i, o) {
			c.Witness = &Witness{Quorums: []int{i}, Nodes: []int{o}}
			c.Detail = "a quorum does not contain its owner"
			return c
		}
		if o < f.N {
			owns[o]++
		}
	}
	c.OK = true
	c.Detail = "every quorum contains its owner"
	none, many := 0, 0
	for _, k := range owns {
		if k == 0 {
			none++
		}
		if k > 1 {
			many++
		}
	}
	if none == 0 && many == 0 {
		c.Detail += "; every node owns exactly one quorum"
	} else {
		c.Detail += fmt.Sprintf("; %d nodes own no quorum, %d own several", none, many)
	}
	return c
}

func sizeCheck(f *set.Family, sys quorum.System) Check {
	c := Check{Name: "equal_size", Info: true, H: f.H}
	if w, ok := quorum.ThresholdOf(sys); ok {
		c.OK, c.Detail = true, fmt.Sprintf("every quorum has %d nodes", w)
		return c
	}
	m := f.Len()
	if m == 0 {
		c.OK, c.Detail = true, "no quorums"
		return c
	}
	lo, hi := 0, 0
	a, b := f.QuorumSize(0), f.QuorumSize(0)
	for i := range m {
		s := f.QuorumSize(i)
		if s < a {
			lo, a = i, s
		}
		if s > b {
			hi, b = i, s
		}
	}
	if a == b {
		c.OK, c.Detail = true, fmt.Sprintf("every quorum has %d nodes", a)
		return c
	}
	c.Witness = &Witness{Quorums: []int{lo, hi}}
	c.Detail = fmt.Sprintf("quorum sizes range from %d to %d", a, b)
	return c
}

func responsibilityCheck(f *set.Family, sys quorum.System) Check {
	c := Check{Name: "equal_responsibility", Info: true, H: f.H}
	if w, ok := quorum.ThresholdOf(sys); ok {
		d := fmt.Sprintf("C(%d, %d)", f.N-1, w-1)
		if b := binomial(f.N-1, w-1); b != nil {
			d = b.String()
		}
		c.OK, c.Detail = true, fmt.Sprintf("every node is in %s quorums", d)
		return c
	}
	deg := f.Degrees()
	lo, hi := 0, 0
	for v, d := range deg {
		if d < deg[lo] {
			lo = v
		}
		if d > deg[hi] {
			hi = v
		}
	}
	if deg[lo] == deg[hi] {
		c.OK, c.Detail = true, fmt.Sprintf("every node is in %d quorums", deg[lo])
		return c
	}
	c.Witness = &Witness{Nodes: []int{lo, hi}}
	c.Detail = fmt.Sprintf("nodes are in %d to %d quorums", deg[lo], deg[hi])
	return c
}

// planeCheck checks that every two quorums of f (typed as sys) meet in
// exactly one node. pair
// is a known disjoint pair, or nil if pairwise intersection is unknown or
// known to hold (pairwiseOK).
func planeCheck(ctx context.Context, f *set.Family, sys quorum.System, pair []int, pairwiseOK bool) Check {
	c := Check{Name: "projective_plane", Info: true, H: f.H}
	if w, ok := quorum.ThresholdOf(sys); ok {
		// Two distinct w-subsets of n nodes meet in max(0, 2w−n) to w−1
		// nodes, and every value between occurs.
		n := f.N
		if w >= n {
			c.OK, c.Detail = true, "a single quorum"
			return c
		}
		if lo := max(0, 2*w-n); lo == 1 && w-1 == 1 {
			c.OK, c.Detail = true, "every two quorums meet in exactly one node"
			return c
		}
		c.Detail = fmt.Sprintf("two quorums meet in %d to %d nodes", max(0, 2*w-n), w-1)
		return c
	}
	m := f.Len()
	if m < 2 {
		c.OK, c.Detail = true, "fewer than two quorums"
		return c
	}
	if pair == nil && !pairwiseOK {
		var i, j int
		var err error
		if f.IsSparse() {
			i, j, err = sparsePair(ctx, f, nil)
		} else {
			i, j, err = findPair(ctx, set.Pack(f.N, f.Quorums), nil)
		}
		if err != nil {
			undecided(&c, err)
			return c
		}
		if i >= 0 {
			pair = []int{i, j}
		}
	}
	if pair != nil {
		c.Witness = &Witness{Quorums: pair}
		c.Detail = "two quorums do not meet"
		return c
	}
	// Every pair meets; they all meet in exactly one node iff the pairs
	// (quorum pair, common node) number exactly C(m, 2).
	deg := f.Degrees()
	var incidences int64
	for _, d := range deg {
		incidences += int64(d) * int64(d-1) / 2
	}
	if incidences == int64(m)*int64(m-1)/2 {
		c.OK, c.Detail = true, "every two quorums meet in exactly one node"
		return c
	}
	// Some pair meets twice: find the first. The first quorums are
	// compared with all later ones directly, within about 4m comparisons:
	// on most lists that are not planes the first pair turns up there,
	// before the node → quorums table (four bytes an incidence) is built.
	var buf []int
	witness := func(i, j int) Check {
		buf = f.AppendQuorum(buf[:0], i)
		var common []int
		for _, v := range buf {
			if f.QuorumHas(j, v) {
				common = append(common, v)
			}
		}
		c.Witness = &Witness{Quorums: []int{i, j}, Nodes: common}
		c.Detail = fmt.Sprintf("two quorums meet in %d nodes", len(common))
		return c
	}
	if !f.IsSparse() {
		for i, left := 0, 4*m; i < m-1 && left >= m-1-i; i++ {
			left -= m - 1 - i
			if ctx.Err() != nil {
				undecided(&c, ctx.Err())
				return c
			}
			for j := i + 1; j < m; j++ {
				if set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]) >= 2 {
					return witness(i, j)
				}
			}
		}
	}
	holders := make([][]int32, f.N)
	for i := range m {
		buf = f.AppendQuorum(buf[:0], i)
		for _, v := range buf {
			holders[v] = append(holders[v], int32(i))
		}
	}
	// Quorum j > i meets Q_i twice iff it shares two of Q_i's nodes other
	// than the one held by the most quorums, or one of them and that one:
	// the heavy node's quorums are never walked (a node in every quorum
	// costs nothing), and the counts are reset by stamps, not cleared.
	count := make([]int32, m)
	stamp := make([]int32, m)
	for i := range m {
		if i&1023 == 0 && ctx.Err() != nil {
			undecided(&c, ctx.Err())
			return c
		}
		buf = f.AppendQuorum(buf[:0], i)
		heavy := buf[0]
		for _, v := range buf {
			if len(holders[v]) > len(holders[heavy]) {
				heavy = v
			}
		}
		j, st := -1, int32(i+1)
		for _, v := range buf {
			if v == heavy {
				continue
			}
			hs := holders[v]
			k, _ := slices.BinarySearch(hs, int32(i+1))
			for _, h := range hs[k:] {
				if stamp[h] != st {
					stamp[h], count[h] = st, 0
					if f.QuorumHas(int(h), heavy) {
						count[h] = 1
					}
				}
				count[h]++
				if count[h] == 2 && (j < 0 || int(h) < j) {
					j = int(h)
				}
			}
		}
		if j >= 0 {
			return witness(i, j)
		}
	}
	// Unreachable: the count differs from C(m, 2), so some pair meets twice.
	c.Detail = "quorums meet in more than one node"
	return c
}

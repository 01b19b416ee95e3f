package availability

import (
	"context"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// recogniseTree returns the polynomial of f when f, whatever its kind and
// the numbering of its nodes, is the tree quorum system of Agrawal and El
// Abbadi ([construct.Tree]) of some degree d and height h ≥ 1 over all of
// its nodes. The degree and height come from the number of nodes and of
// quorums; the tree from the quorums themselves: the root of a subtree is
// in d·T(h−1) of its quorums, which without the root are the quorums of
// its d subtrees, never two subtrees at once, so the subtrees are the
// components of "in a quorum with the root together". The guess is only
// a numbering: the quorums must then pass [treeHolds], which proves them
// to be all the minimal quorums of the tree so numbered, so a wrong guess
// costs a BDD, never a wrong answer.
func recogniseTree(ctx context.Context, f *set.Family) (*Polynomial, bool) {
	if f.K != 1 || len(f.Quorums) < 3 {
		return nil, false
	}
	m := int64(len(f.Quorums))
	var qs [][]int32
	for d := 2; d < f.N; d++ {
		for h := 1; ; h++ {
			nodes := construct.TreeNodes(d, h)
			if nodes < 0 || nodes > f.N {
				break
			}
			count := construct.TreeCount(d, h)
			if nodes != f.N || !count.IsInt64() || count.Int64() != m {
				continue
			}
			if qs == nil {
				if qs = memberLists(ctx, f); qs == nil {
					return nil, false
				}
			}
			label, ok := treeNumbering(f.N, qs, d, h)
			if !ok || !treeHolds(f.N, qs, label, d, h) {
				continue
			}
			if ctx.Err() != nil {
				return nil, false
			}
			p, err := TreePolynomial(ctx, d, h)
			if err != nil || p.N != f.N {
				return nil, false
			}
			return p, true
		}
	}
	return nil, false
}

// treeHolds reports whether the quorums qs (0-based member lists, each
// without repeats) over n nodes, node v renamed label[v], are exactly the
// minimal quorums of [construct.Tree](d, h), which numbers the nodes
// breadth first: the check of [catalogue.holds] against
// [construct.TreeSystem]'s predicate, in one pass over the lists.
//
// The subtree of u is live on S when u ∈ S and some child's subtree is
// live, or when every child's subtree is live; a leaf when it is in S. So
// the minimal live sets M(u) of an inner node are the sets {u} ∪ q with q
// in M(c) for one child c, and the unions of one set of M(c) for every
// child c: each is live, none holds another live set (without u, or with
// a set of M(c) made smaller, no child's subtree is live but the one
// that was; with a smaller part under some child, that child is dead and
// u is not there to save it), and every live set holds one. Numbering
// the first kind c·T(k−1) + (number of q), and the second d·T(k−1) + the
// numbers of the parts in mixed radix T(k−1) (T(k) the count of a
// subtree of height k, [construct.TreeCount]), is one-to-one onto
// 0..T(k)−1. So the quorums are all the minimal live sets when each
// is one, no two get the same number and there are T(h) of them.
func treeHolds(n int, qs [][]int32, label []int, d, h int) bool {
	if construct.TreeNodes(d, h) != n || len(label) != n {
		return false
	}
	count := construct.TreeCount(d, h)
	if !count.IsInt64() || count.Int64() != int64(len(qs)) {
		return false
	}
	t := make([]int64, h+1) // t[k] = T(k) ≤ T(h)
	t[0] = 1
	for k := 1; k <= h; k++ {
		t[k] = construct.TreeCount(d, k).Int64()
	}
	// For the quorum being checked (number gen): in[v] == gen when v is
	// in it, under[v] == gen when v's subtree meets it, and then kids[v]
	// counts the children whose subtrees meet it, last the last of them.
	in := make([]int32, n)
	under := make([]int32, n)
	kids := make([]int32, n)
	last := make([]int32, n)
	gen := int32(0)
	var rank func(u, k int) (int64, bool)
	rank = func(u, k int) (int64, bool) {
		if k == 0 {
			return 0, in[u] == gen
		}
		if in[u] == gen {
			// u and a quorum of one child's subtree.
			if kids[u] != 1 {
				return 0, false
			}
			c := int(last[u])
			r, ok := rank(c, k-1)
			return int64(c-u*d-1)*t[k-1] + r, ok
		}
		// A quorum of every child's subtree.
		if kids[u] != int32(d) {
			return 0, false
		}
		r := int64(0)
		for c := u*d + d; c > u*d; c-- {
			rc, ok := rank(c, k-1)
			if !ok {
				return 0, false
			}
			r = r*t[k-1] + rc
		}
		return int64(d)*t[k-1] + r, true
	}
	parent := make([]int32, n) // a table: a division per step costs more than the rest
	for v := 1; v < n; v++ {
		parent[v] = int32((v - 1) / d)
	}
	seen := make([]uint64, (len(qs)+63)/64)
	for _, q := range qs {
		if len(q) == 0 {
			return false
		}
		gen++
		for _, v := range q {
			if int(v) >= n || in[label[v]] == gen {
				return false
			}
			u := label[v]
			in[u] = gen
			// Mark the subtrees holding u, up to one already marked.
			if under[u] != gen {
				kids[u] = 0
			}
			for under[u] != gen {
				under[u] = gen
				if u == 0 {
					break
				}
				p := int(parent[u])
				if under[p] != gen {
					kids[p] = 0
				}
				kids[p]++
				last[p] = int32(u)
				u = p
			}
		}
		r, ok := rank(0, h)
		if !ok || r < 0 || r >= int64(len(qs)) || seen[r>>6]&(1<<(r&63)) != 0 {
			return false
		}
		seen[r>>6] |= 1 << (r & 63)
	}
	return true
}

// tnode is a node of a guessed tree: f's node v and its subtrees.
type tnode struct {
	v    int32
	kids []*tnode
}

// treeNumbering guesses the tree of degree d and height h behind the
// quorums qs over n nodes (see [recogniseTree]) and returns the breadth-
// first numbering [construct.Tree] would give its nodes (label[v] for node
// v), or false when the quorums do not split as a tree's would. The
// quorums of a subtree are those of the whole restricted to its nodes:
// a node's mark says which subtree it was last put in.
func treeNumbering(n int, qs [][]int32, d, h int) ([]int, bool) {
	all := make([]int32, n)
	for v := range all {
		all[v] = int32(v)
	}
	idx := make([]int32, len(qs))
	for i := range idx {
		idx[i] = int32(i)
	}
	deg := make([]int64, n)
	parent := make([]int32, n)
	comp := make([]int32, n)
	mark := make([]int32, n)
	stamp := int32(0)
	find := func(v int32) int32 {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	has := func(q []int32, r int32) bool {
		for _, v := range q {
			if v == r {
				return true
			}
		}
		return false
	}
	var build func(qi []int32, nodes []int32, h int) (*tnode, bool)
	build = func(qi []int32, nodes []int32, h int) (*tnode, bool) {
		stamp++
		s := stamp
		for _, v := range nodes {
			mark[v] = s
		}
		if h == 0 {
			if len(nodes) != 1 || len(qi) != 1 {
				return nil, false
			}
			k := 0
			for _, v := range qs[qi[0]] {
				if mark[v] == s {
					if v != nodes[0] {
						return nil, false
					}
					k++
				}
			}
			if k != 1 {
				return nil, false
			}
			return &tnode{v: nodes[0]}, true
		}
		sub := construct.TreeCount(d, h-1).Int64()
		size := construct.TreeNodes(d, h-1)
		for _, v := range nodes {
			deg[v] = 0
		}
		for _, i := range qi {
			for _, v := range qs[i] {
				if mark[v] == s {
					deg[v]++
				}
			}
		}
		for _, r := range nodes {
			if deg[r] != int64(d)*sub {
				continue
			}
			for _, v := range nodes {
				parent[v] = v
				comp[v] = -1
			}
			for _, i := range qi {
				q := qs[i]
				if !has(q, r) {
					continue
				}
				first := int32(-1)
				for _, v := range q {
					if v == r || mark[v] != s {
						continue
					}
					if first < 0 {
						first = v
					} else {
						parent[find(v)] = find(first)
					}
				}
			}
			var roots []int32
			var comps [][]int32
			for _, v := range nodes {
				if v == r {
					continue
				}
				c := find(v)
				if comp[c] < 0 {
					comp[c] = int32(len(roots))
					roots = append(roots, c)
					comps = append(comps, nil)
				}
				comps[comp[c]] = append(comps[comp[c]], v)
			}
			if len(roots) != d {
				continue
			}
			ok := true
			for _, c := range comps {
				ok = ok && len(c) == size
			}
			if !ok {
				continue
			}
			// The subtrees' quorums: those of r's quorums, less r,
			// that lie in one subtree (all of them do).
			parts := make([][]int32, d)
			for _, i := range qi {
				q := qs[i]
				if !has(q, r) {
					continue
				}
				c := int32(-1)
				for _, v := range q {
					if v != r && mark[v] == s {
						c = comp[find(v)]
						break
					}
				}
				if c < 0 {
					return nil, false
				}
				parts[c] = append(parts[c], i)
			}
			t := &tnode{v: r}
			for c := range comps {
				if int64(len(parts[c])) != sub {
					return nil, false
				}
				k, ok := build(parts[c], comps[c], h-1)
				if !ok {
					return nil, false
				}
				t.kids = append(t.kids, k)
			}
			return t, true
		}
		return nil, false
	}
	root, ok := build(idx, all, h)
	if !ok {
		return nil, false
	}
	// Breadth first, as construct.Tree numbers: the children of the node
	// numbered u are u·d+1, …, u·d+d.
	label := make([]int, n)
	queue := []*tnode{root}
	for i := 0; i < len(queue); i++ {
		label[queue[i].v] = i
		queue = append(queue, queue[i].kids...)
	}
	if len(queue) != n {
		return nil, false
	}
	return label, true
}

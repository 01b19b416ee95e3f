package availability

import (
	"context"
	"slices"

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
// a numbering: f renumbered by it must then pass the check of
// [catalogue.holds] against the construction's predicate (distinct
// minimal quorums, as many as the tree has), so a wrong guess costs a
// BDD, never a wrong answer.
func recogniseTree(ctx context.Context, f *set.Family) (*Polynomial, bool) {
	if f.K != 1 || len(f.Quorums) < 3 {
		return nil, false
	}
	m := int64(len(f.Quorums))
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
			g, ok := treeNumbering(f, d, h)
			if !ok {
				continue
			}
			sys, err := construct.NewTreeSystem(d, h)
			if err != nil || !(catalogue{live: sys.HasQuorum, count: count}).holds(g) {
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

// tnode is a node of a guessed tree: f's node v and its subtrees.
type tnode struct {
	v    int
	kids []*tnode
}

// treeNumbering guesses the tree of degree d and height h behind f (see
// [recogniseTree]) and returns f renumbered breadth first as
// [construct.Tree] numbers it, or false when the quorums do not split as a
// tree's would.
func treeNumbering(f *set.Family, d, h int) (*set.Family, bool) {
	qs := make([][]int, len(f.Quorums))
	for i := range f.Quorums {
		qs[i] = f.Quorums[i].Elements()
	}
	all := make([]int, f.N)
	for v := range all {
		all[v] = v
	}
	deg := make([]int, f.N)
	parent := make([]int, f.N)
	find := func(v int) int {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	var build func(qs [][]int, nodes []int, h int) (*tnode, bool)
	build = func(qs [][]int, nodes []int, h int) (*tnode, bool) {
		if h == 0 {
			if len(nodes) != 1 || len(qs) != 1 || len(qs[0]) != 1 || qs[0][0] != nodes[0] {
				return nil, false
			}
			return &tnode{v: nodes[0]}, true
		}
		sub := construct.TreeCount(d, h-1).Int64()
		size := construct.TreeNodes(d, h-1)
		for _, v := range nodes {
			deg[v] = 0
		}
		for _, q := range qs {
			for _, v := range q {
				deg[v]++
			}
		}
		for _, r := range nodes {
			if int64(deg[r]) != int64(d)*sub {
				continue
			}
			for _, v := range nodes {
				parent[v] = v
			}
			for _, q := range qs {
				if !slices.Contains(q, r) {
					continue
				}
				first := -1
				for _, v := range q {
					if v == r {
						continue
					}
					if first < 0 {
						first = v
					} else {
						parent[find(v)] = find(first)
					}
				}
			}
			comps := map[int][]int{}
			var roots []int
			for _, v := range nodes {
				if v == r {
					continue
				}
				c := find(v)
				if comps[c] == nil {
					roots = append(roots, c)
				}
				comps[c] = append(comps[c], v)
			}
			if len(roots) != d {
				continue
			}
			ok := true
			for _, c := range roots {
				ok = ok && len(comps[c]) == size
			}
			if !ok {
				continue
			}
			// The subtrees' quorums: those of r's quorums, less r,
			// that lie in one subtree (all of them do).
			parts := make(map[int][][]int, d)
			for _, q := range qs {
				if !slices.Contains(q, r) {
					continue
				}
				rest := make([]int, 0, len(q)-1)
				for _, v := range q {
					if v != r {
						rest = append(rest, v)
					}
				}
				if len(rest) == 0 {
					return nil, false
				}
				c := find(rest[0])
				parts[c] = append(parts[c], rest)
			}
			t := &tnode{v: r}
			for _, c := range roots {
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
	root, ok := build(qs, all, h)
	if !ok {
		return nil, false
	}
	// Breadth first, as construct.Tree numbers: the children of the node
	// numbered u are u·d+1, …, u·d+d.
	label := make([]int, f.N)
	queue := []*tnode{root}
	for i := 0; i < len(queue); i++ {
		label[queue[i].v] = i
		queue = append(queue, queue[i].kids...)
	}
	if len(queue) != f.N {
		return nil, false
	}
	g := renumbered(f.N, qs, label)
	return g, true
}

// renumbered is the family over n nodes of the quorums qs (0-based member
// lists) with node v renamed label[v].
func renumbered(n int, qs [][]int, label []int) *set.Family {
	g := set.NewFamily(n)
	for _, q := range qs {
		s := set.New(n)
		for _, v := range q {
			s.Add(label[v])
		}
		g.Add(s, set.NoOwner)
	}
	return g
}

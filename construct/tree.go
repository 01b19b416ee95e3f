package construct

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// TreeNodes returns the number of nodes of the complete tree of degree d ≥ 2
// and height h ≥ 0: (d^(h+1) − 1)/(d − 1), or −1 past set.MaxNodes.
func TreeNodes(d, h int) int {
	n, level := 0, 1
	for range h + 1 {
		n += level
		if n > set.MaxNodes {
			return -1
		}
		level *= d
		if level > set.MaxNodes {
			level = set.MaxNodes + 1
		}
	}
	return n
}

// TreeCount returns the number of quorums of [Tree](d, h): T(0) = 1 and
// T(h) = d·T(h−1) + T(h−1)^d; past 2^4096 it returns 2^4096 instead.
func TreeCount(d, h int) *big.Int {
	t := big.NewInt(1)
	for range h {
		if t.BitLen()*d > 1<<12 {
			return tooMany() // far past any limit; stop before it explodes
		}
		all := bigPow(t, d)
		t = all.Add(all, new(big.Int).Mul(big.NewInt(int64(d)), t))
	}
	return t
}

// Tree returns the tree quorum system of Agrawal and El Abbadi ("An
// efficient and fault-tolerant solution for distributed mutual exclusion",
// ACM TOCS 9(1), 1991) over the complete tree of degree d ≥ 2 and height
// h ≥ 0. Nodes are numbered breadth first: the root is node 0 and the
// children of node v are v·d+1, …, v·d+d (1-based in files: the root is
// node 1). The quorums are defined recursively: a leaf's only quorum is
// {leaf}, and for an inner node v with subtrees T_1..T_d
//
//	Q(v) = { {v} ∪ q : q ∈ Q(T_i), 1 ≤ i ≤ d }            (v on the path)
//	     ∪ { q_1 ∪ … ∪ q_d : q_i ∈ Q(T_i) }                  (v replaced)
//
// so a quorum with every node up is a root-to-leaf path, and a failed node
// is replaced by paths through its children. For the binary tree (d = 2)
// this is exactly the paper's GetQuorum ("a path from the root to a leaf;
// if a node is inaccessible, two paths, one through each of its subtrees").
// For d ≥ 3 the replacement must go through all d children: with a path on
// one side ({v} ∪ q_1) and paths through only a majority of the children on
// the other (q_2 ∪ q_3 for d = 3) two quorums would be disjoint. Any two
// quorums of Q(v) meet: two of the first kind share v; a path {v} ∪ q_i and
// a replacement meet inside T_i; two replacements meet inside every T_i.
//
// The family has [TreeCount](d, h) quorums, which grows doubly
// exponentially (2^(2^h) − 1 for d = 2); Tree refuses more than
// MaxCatalogueQuorums. Its availability and load do not need the quorums
// (package availability and measure).
func Tree(d, h int) (*set.Family, error) {
	return tree(context.Background(), d, h)
}

// tree is [Tree] watching ctx.
func tree(ctx context.Context, d, h int) (*set.Family, error) {
	if d < 2 || h < 0 {
		return nil, fmt.Errorf("construct: tree: degree %d and height %d: need degree ≥ 2 and height ≥ 0", d, h)
	}
	n := TreeNodes(d, h)
	if n < 0 {
		return nil, fmt.Errorf("construct: tree: degree %d and height %d: more than %d nodes", d, h, set.MaxNodes)
	}
	what := fmt.Sprintf("tree: degree %d, height %d", d, h)
	if err := checkCount(what, TreeCount(d, h), n); err != nil {
		return nil, err
	}
	params := set.Params{"degree": d, "height": h}
	return collect(ctx, n, "tree", params, func(s *set.Set, emit func()) {
		var rec func(v, depth int, k func())
		rec = func(v, depth int, k func()) {
			if depth == h {
				s.Add(v)
				k()
				s.Remove(v)
				return
			}
			first := v*d + 1
			s.Add(v)
			for c := range d {
				rec(first+c, depth+1, k)
			}
			s.Remove(v)
			var all func(c int)
			all = func(c int) {
				if c == d {
					k()
					return
				}
				rec(first+c, depth+1, func() { all(c + 1) })
			}
			all(0)
		}
		rec(0, 0, emit)
	})
}

var treeSpec = Spec{
	Name:    "tree",
	Summary: "tree quorums: root-to-leaf paths, a failed node replaced by paths through its children",
	Source:  "Agrawal, El Abbadi 1991",
	Layout:  named("tree"),
	Params: []Param{
		{Name: "degree", Usage: "children per inner node", Type: Int, Default: 2, Min: 2, Max: 1 << 12},
		{Name: "height", Usage: "height of the tree (a single node has height 0)", Type: Int, Required: true, Min: 0, Max: 64},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		return system(tree(ctx, a.Int("degree"), a.Int("height")))
	},
	Typed: func(a Args) (quorum.System, error) { return NewTreeSystem(a.Int("degree"), a.Int("height")) },
}

// TreeSystem is [Tree] as a typed construction: it answers membership,
// its quorum count and sizes, its intersection proof and its load without
// listing the quorums.
type TreeSystem struct {
	implicitBase
	Degree, Height int
}

// NewTreeSystem returns the tree quorums of degree d ≥ 2 and height h ≥ 0.
func NewTreeSystem(d, h int) (*TreeSystem, error) {
	if d < 2 || h < 0 {
		return nil, fmt.Errorf("construct: tree: degree %d and height %d: need degree ≥ 2 and height ≥ 0", d, h)
	}
	n := TreeNodes(d, h)
	if n < 0 {
		return nil, paramErrorf("tree", "height", h, "with degree %d makes more than %d nodes", d, set.MaxNodes)
	}
	return &TreeSystem{implicitBase{kind: "tree", params: set.Params{"degree": d, "height": h}, n: n}, d, h}, nil
}

// HasQuorum reports whether live holds a quorum: a node's subtree is live
// when the node is up and one child's subtree is live, or when every
// child's subtree is live; a leaf is live when it is up.
func (t *TreeSystem) HasQuorum(live *set.Set) bool {
	d, h := t.Degree, t.Height
	var rec func(v, depth int) bool
	rec = func(v, depth int) bool {
		if depth == h {
			return live.Has(v)
		}
		some, all := false, true
		for c := v*d + 1; c <= v*d+d; c++ {
			l := rec(c, depth+1)
			some, all = some || l, all && l
			if some && !all {
				break
			}
		}
		return (some && live.Has(v)) || all
	}
	return rec(0, 0)
}

// QuorumCount returns [TreeCount].
func (t *TreeSystem) QuorumCount() (*big.Int, bool) { return TreeCount(t.Degree, t.Height), true }

// QuorumSizes returns h+1 (a root-to-leaf path) and d^h = N − (N−1)/d
// (every inner node replaced: all the leaves; replacing a node by its d
// children's quorums never makes a quorum smaller).
func (t *TreeSystem) QuorumSizes() (int, int) { return t.Height + 1, t.n - (t.n-1)/t.Degree }

// IntersectionProof cites why two quorums meet.
func (t *TreeSystem) IntersectionProof() string {
	return "Agrawal and El Abbadi 1991: two quorums of a subtree meet at its root or inside a child subtree that both use"
}

// ClosedFormLoad returns [TreeLoad].
func (t *TreeSystem) ClosedFormLoad() (*big.Rat, bool) { return TreeLoad(t.Degree, t.Height), true }

// TreeLoad returns the load of the tree quorums of degree d ≥ 2 and height
// h ≥ 0, d / (d + h(d−1)): 2/(h+2) for the binary tree, the value Naor and
// Wool give for the tree system (SIAM J. Comput. 27(2), 1998). Package
// measure proves it and certifies it on listed quorums.
func TreeLoad(d, h int) *big.Rat {
	return big.NewRat(int64(d), int64(d+h*(d-1)))
}

// LoadCertificate returns [TreeLoad] with the strategy and the node
// weights that prove it (measure.TreeLoad gives the argument), on the
// numbering of [Tree] (breadth first, children of v at v·d+1..v·d+d).
func (t *TreeSystem) LoadCertificate() (*big.Rat, func(*set.Set) *big.Rat, []*big.Rat, bool) {
	n, d, h := t.n, t.Degree, t.Height
	if h > 40 {
		return nil, nil, nil, false
	}
	size := 1
	for range h {
		size = size*d + 1
		if size > 1<<24 {
			return nil, nil, nil, false
		}
	}
	if size != n {
		return nil, nil, nil, false
	}
	one := big.NewRat(1, 1)
	dd := big.NewRat(int64(d), 1)
	// x[k], a[k]: root probability and root weight of a subtree of height k.
	x := make([]*big.Rat, h+1)
	a := make([]*big.Rat, h+1)
	x[0], a[0] = big.NewRat(1, 1), big.NewRat(1, 1)
	for k := 1; k <= h; k++ {
		prev := TreeLoad(d, k-1)
		dm1L := new(big.Rat).Mul(big.NewRat(int64(d-1), 1), prev)
		den := new(big.Rat).Add(dd, dm1L)
		x[k] = new(big.Rat).Quo(new(big.Rat).Mul(dd, prev), den)
		a[k] = new(big.Rat).Quo(dm1L, den)
	}
	y := make([]*big.Rat, n)
	var fill func(v, k int, scale *big.Rat)
	fill = func(v, k int, scale *big.Rat) {
		y[v] = new(big.Rat).Mul(scale, a[k])
		if k == 0 {
			return
		}
		rest := new(big.Rat).Sub(one, a[k])
		rest.Mul(rest, scale).Quo(rest, dd)
		for c := v*d + 1; c <= v*d+d; c++ {
			fill(c, k-1, rest)
		}
	}
	fill(0, h, big.NewRat(1, 1))
	// meets reports whether q has a node in the subtree of v (height k).
	var meets func(q *set.Set, v, k int) bool
	meets = func(q *set.Set, v, k int) bool {
		if q.Has(v) {
			return true
		}
		if k == 0 {
			return false
		}
		for c := v*d + 1; c <= v*d+d; c++ {
			if meets(q, c, k-1) {
				return true
			}
		}
		return false
	}
	var weight func(q *set.Set, v, k int) *big.Rat
	weight = func(q *set.Set, v, k int) *big.Rat {
		if k == 0 {
			if q.Has(v) {
				return big.NewRat(1, 1)
			}
			return nil
		}
		if q.Has(v) { // a path: exactly one subtree used
			var w *big.Rat
			for c := v*d + 1; c <= v*d+d; c++ {
				if meets(q, c, k-1) {
					if w != nil {
						return nil
					}
					if w = weight(q, c, k-1); w == nil {
						return nil
					}
				}
			}
			if w == nil {
				return nil
			}
			return w.Mul(w, x[k]).Quo(w, dd)
		}
		w := new(big.Rat).Sub(one, x[k])
		for c := v*d + 1; c <= v*d+d; c++ {
			wc := weight(q, c, k-1)
			if wc == nil {
				return nil
			}
			w.Mul(w, wc)
		}
		return w
	}
	return TreeLoad(d, h), func(q *set.Set) *big.Rat { return weight(q, 0, h) }, y, true
}

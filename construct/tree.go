package construct

import (
	"fmt"
	"math/big"

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
	return collect(n, "tree", params, func(s *set.Set, emit func()) {
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
	}), nil
}

var treeSpec = Spec{
	Name:    "tree",
	Summary: "tree quorums: root-to-leaf paths, a failed node replaced by paths through its children",
	Source:  "Agrawal, El Abbadi 1991",
	Params: []Param{
		{Name: "degree", Usage: "children per inner node", Type: Int, Default: 2, Min: 2, Max: 1 << 12},
		{Name: "height", Usage: "height of the tree (a single node has height 0)", Type: Int, Required: true, Min: 0, Max: 64},
	},
	Build: func(a Args) (set.System, error) { return system(Tree(a.Int("degree"), a.Int("height"))) },
}

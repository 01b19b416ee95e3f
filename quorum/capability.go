package quorum

import (
	"math/big"

	"github.com/coterie-dev/coterie/set"
)

// The interfaces below are capabilities: what a construction knows about
// itself without its quorums being listed. A construction implements the
// ones it can answer, next to its definition (package construct); a
// consumer asks with a type assertion and falls back to the general
// algorithm on the listed quorums when the answer is missing.
//
//	if c, ok := sys.(quorum.Counter); ok {
//		if n, ok := c.QuorumCount(); ok { ... }
//	}

// Described is a system built by a registered construction: its kind (the
// KIND of `coterie generate`) and its canonical parameters, as files
// record them.
type Described interface {
	Kind() string
	Params() set.Params
}

// Counter knows its number of minimal quorums. ok is false when the count
// is not known without listing them.
type Counter interface {
	QuorumCount() (count *big.Int, ok bool)
}

// Sizer knows the sizes of its smallest and largest quorums.
type Sizer interface {
	QuorumSizes() (smallest, largest int)
}

// Prover knows why it is a coterie: any two quorums meet and no quorum
// contains another. IntersectionProof cites the argument and its source.
type Prover interface {
	IntersectionProof() string
}

// DominationTheorem knows, by a published theorem, that the system is
// nondominated; ok is false when no theorem it knows applies, and the
// verdict is then left to the algorithm. The citation names the theorem.
type DominationTheorem interface {
	NondominatedByTheorem() (citation string, ok bool)
}

// LoadFormula knows its Naor–Wool load in closed form; ok is false when
// the formula does not apply to these parameters.
type LoadFormula interface {
	ClosedFormLoad() (load *big.Rat, ok bool)
}

// SlabGrid knows that it is (claims to be) the slab system over a grid
// of these dimensions, the first varying fastest: a quorum is one full
// slab per dimension. A consumer checks the claim on the quorums; it only
// orders the candidates it tries first.
type SlabGrid interface {
	SlabDims() []int
}

// LoadCertifier knows an optimal strategy and an optimal dual of its load
// linear program on its own quorums: the load L, the strategy's weight
// of a quorum (nil for a set that is not one of its quorums) and node
// weights y. On any listed family where the weights of its quorums sum to
// 1, no node carries more than L, y sums to 1 and every quorum weighs at
// least L under y, L is that family's load (LP duality), whatever built
// it; a consumer checks exactly that.
type LoadCertifier interface {
	LoadCertificate() (load *big.Rat, weight func(q *set.Set) *big.Rat, y []*big.Rat, ok bool)
}

// Layout is how a picture shows a construction's structure. Name is a
// layout of package draw: "grid", "tree", "hqc", "rows", "billiard",
// "cube" or "join". Dims are the layout's dimensions where the
// construction's parameters hold them in a form of its own: the rows and
// columns of a "grid" (node i in row i / columns), the row widths of
// "rows" from the top; the other layouts read the parameters they are
// named by (degree and height, levels, q, a and k, at, outer_n and
// inner_n) and leave Dims nil.
type Layout struct {
	Name string
	Dims []int
}

// Drawer knows the layout that shows its structure, from its parameters
// and its number of nodes; ok is false when they do not fit it (a grid
// whose rows and columns do not hold its nodes). The layout only places
// the nodes: a consumer checks on the quorums whatever else it needs.
type Drawer interface {
	DrawLayout() (layout Layout, ok bool)
}

// Thresholder is a system whose quorums are every subset of Threshold()
// of its N() nodes (voting with one vote per node), held without its
// quorums listed: a consumer answers it with the binomial formulas, never
// by listing C(n, w) quorums.
type Thresholder interface {
	Threshold() int
}

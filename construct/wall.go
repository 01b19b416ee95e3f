package construct

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// WallCount returns the number of quorums of [Wall](widths):
// Σ_i Π_{j>i} n_j; past 2^4096 it returns 2^4096 instead.
func WallCount(widths []int) *big.Int {
	total, below := new(big.Int), big.NewInt(1)
	for i := len(widths) - 1; i >= 0; i-- {
		total.Add(total, below)
		below.Mul(below, big.NewInt(int64(widths[i])))
		if below.BitLen() > 1<<12 {
			return tooMany()
		}
	}
	return total
}

// checkWidths validates the row widths of a crumbling wall.
func checkWidths(widths []int) (n int, err error) {
	if len(widths) == 0 {
		return 0, errorf("wall", "no rows")
	}
	for i, w := range widths {
		switch {
		case w < 1:
			return 0, errorf("wall", "row %d has width %d: must be at least 1", i+1, w)
		case i > 0 && w < 2:
			// The quorum starting at a one-node row j lies inside every
			// quorum starting above it, which is then not minimal.
			return 0, errorf("wall", "row %d has width 1: only the top row may (a one-node row below would make every quorum above it non-minimal)", i+1)
		}
		n += w
		if n > set.MaxNodes {
			return 0, errorf("wall", "more than %d nodes", set.MaxNodes)
		}
	}
	return n, nil
}

// Wall returns the crumbling wall of Peleg and Wool ("Crumbling walls: a
// class of practical and efficient quorum systems", Distributed Computing
// 10(2), 1997; "The availability of crumbling wall quorum systems", Discrete
// Applied Mathematics 74, 1997) with rows of widths n_1, …, n_d from the top:
// the nodes are numbered row by row, and a quorum is one full row i together
// with one node of every row below it (rows i+1..d). Two quorums with top
// rows i ≤ j meet in row j, which one holds whole and the other touches.
// Every row below the first must have at least two nodes (a one-node row j
// makes the quorum starting at j a subset of those starting above it).
//
// Peleg and Wool show that a wall with n_1 = 1 and n_i ≥ 2 is
// nondominated. The family has [WallCount](widths) quorums; Wall refuses
// more than MaxCatalogueQuorums.
func Wall(widths []int) (*set.Family, error) {
	return wall(context.Background(), widths)
}

// wall is [Wall] watching ctx.
func wall(ctx context.Context, widths []int) (*set.Family, error) {
	n, err := checkWidths(widths)
	if err != nil {
		return nil, err
	}
	return wallFamily(ctx, n, widths, "wall", set.Params{"widths": joinInts(widths)})
}

func wallFamily(ctx context.Context, n int, widths []int, kind string, params set.Params) (*set.Family, error) {
	what := kind + ": widths " + shortInts(widths)
	if kind == "wheel" {
		what = fmt.Sprintf("wheel: n = %d", n)
	}
	if err := checkCount(what, WallCount(widths), n); err != nil {
		return nil, err
	}
	rows := make([][]int, len(widths))
	v := 0
	for i, w := range widths {
		for range w {
			rows[i] = append(rows[i], v)
			v++
		}
	}
	return collect(ctx, n, kind, params, func(s *set.Set, emit func()) {
		for i := range rows {
			for _, v := range rows[i] {
				s.Add(v)
			}
			product(s, rows[i+1:], emit)
			for _, v := range rows[i] {
				s.Remove(v)
			}
		}
	})
}

// Triangle returns the triangular crumbling wall with rows of widths 1, 2,
// …, d (Peleg and Wool; the triangular system of Lovász and of Erdős and
// Lovász): d(d+1)/2 nodes, nondominated.
func Triangle(d int) (*set.Family, error) {
	return triangle(context.Background(), d)
}

// triangle is [Triangle] watching ctx.
func triangle(ctx context.Context, d int) (*set.Family, error) {
	if d < 1 {
		return nil, fmt.Errorf("construct: triangle: %d rows: need at least 1", d)
	}
	widths := make([]int, d)
	for i := range widths {
		widths[i] = i + 1
	}
	n, err := checkWidths(widths)
	if err != nil {
		return nil, err
	}
	return wallFamily(ctx, n, widths, "triangle", set.Params{"rows": d})
}

// CWlogWidths returns the row widths of the CWlog wall over n nodes: row i
// (from 1) has ⌈log₂ 2i⌉ = 1 + ⌈log₂ i⌉ nodes, so the widths are 1, 2, 3,
// 3, 4, 4, 4, 4, 5, …, and the nodes left over when the next row does not
// fit join the last row (the paper's walls grow row by row; the remainder
// rule is coterie's, so that every n has a CWlog). Peleg and Wool ("The
// availability of crumbling wall quorum systems", DAM 74, 1997) show a sharp
// threshold: walls with n_i ≤ ⌈log₂ 2i⌉ are Condorcet — their availability
// tends to 1 as they grow when nodes are up with probability p > 1/2 — and
// walls with n_i ≥ (1+ε)·log₂ i are not. CWlog has the widest rows on the
// good side of the threshold (package availability computes its exact
// polynomial).
//
// n must be at least 1; n = 2 gives the single row of width 2.
func CWlogWidths(n int) []int {
	var widths []int
	used := 0
	for i := 1; ; i++ {
		w := 1
		for 1<<(w-1) < i {
			w++
		}
		if used+w > n {
			if left := n - used; left > 0 {
				if len(widths) == 0 {
					widths = append(widths, left)
				} else {
					widths[len(widths)-1] += left
				}
			}
			return widths
		}
		widths = append(widths, w)
		used += w
	}
}

// CWlog returns the CWlog crumbling wall over n nodes (see [CWlogWidths]).
func CWlog(n int) (*set.Family, error) {
	return cwlog(context.Background(), n)
}

// cwlog is [CWlog] watching ctx.
func cwlog(ctx context.Context, n int) (*set.Family, error) {
	if n < 1 || n > set.MaxNodes {
		return nil, paramErrorf("wall", "n", n, "is out of range 1..%d", set.MaxNodes)
	}
	widths := CWlogWidths(n)
	if _, err := checkWidths(widths); err != nil {
		return nil, err
	}
	return wallFamily(ctx, n, widths, "wall", set.Params{"cwlog": true, "n": n, "widths": joinInts(widths)})
}

// Wheel returns the wheel coterie over n ≥ 3 nodes: node 0 is the hub and
// 1..n−1 the rim; the quorums are {hub, r} for every rim node r, and the
// whole rim. It is the crumbling wall of widths 1, n−1, and nondominated.
func Wheel(n int) (*set.Family, error) {
	return wheel(context.Background(), n)
}

// wheel is [Wheel] watching ctx.
func wheel(ctx context.Context, n int) (*set.Family, error) {
	if n < 3 || n > set.MaxNodes {
		return nil, fmt.Errorf("construct: wheel: n = %d is out of range 3..%d", n, set.MaxNodes)
	}
	return wallFamily(ctx, n, []int{1, n - 1}, "wheel", set.Params{"n": n})
}

var wallSpec = Spec{
	Name:    "wall",
	Summary: "crumbling wall: one full row plus one node of every row below",
	Source:  "Peleg, Wool 1997",
	Layout:  wallLayout,
	Params: []Param{
		{Name: "widths", Usage: "row widths from the top, such as 1,2,3", Type: String},
		{Name: "cwlog", Usage: "the CWlog wall over n nodes (row i has ⌈lg 2i⌉ nodes; the nodes left over join the last row)", Type: Bool, Default: false},
		{Name: "n", Usage: "number of nodes of the CWlog wall", Type: Int, Min: 1, Max: set.MaxNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		if err := exactlyOne("wall", a, []string{"widths"}, []string{"cwlog", "n"}); err != nil {
			return set.System{}, err
		}
		widths, params, err := wallShape("wall", a)
		if err != nil {
			return set.System{}, err
		}
		if params["cwlog"] == true {
			return system(cwlog(ctx, a.Int("n")))
		}
		return system(wall(ctx, widths))
	},
	Typed: func(a Args) (quorum.System, error) {
		widths, params, err := wallShape("wall", a)
		if err != nil {
			return nil, err
		}
		return newWallSystem("wall", params, widths)
	},
}

// WallSystem is a crumbling wall ([Wall], [Triangle], [CWlog]) as a typed
// construction.
type WallSystem struct {
	implicitBase
	Widths []int // row widths from the top
}

// NewWallSystem returns the crumbling wall with these row widths.
func NewWallSystem(widths []int) (*WallSystem, error) {
	return newWallSystem("wall", set.Params{"widths": joinInts(widths)}, widths)
}

func newWallSystem(kind string, params set.Params, widths []int) (*WallSystem, error) {
	n, err := checkWidths(widths)
	if err != nil {
		return nil, err
	}
	return &WallSystem{implicitBase{kind: kind, params: params, n: n}, slices.Clone(widths)}, nil
}

// HasQuorum reports whether some row is all in live with every row below
// it meeting live.
func (w *WallSystem) HasQuorum(live *set.Set) bool {
	end := w.n
	nonemptyBelow := true
	for i := len(w.Widths) - 1; i >= 0 && nonemptyBelow; i-- {
		start := end - w.Widths[i]
		full, ne := true, false
		for v := start; v < end; v++ {
			h := live.Has(v)
			full, ne = full && h, ne || h
		}
		if full {
			return true
		}
		nonemptyBelow = ne
		end = start
	}
	return false
}

// QuorumCount returns [WallCount].
func (w *WallSystem) QuorumCount() (*big.Int, bool) { return WallCount(w.Widths), true }

// QuorumSizes returns the smallest and largest of n_i + (d − i), the size
// of a quorum with top row i.
func (w *WallSystem) QuorumSizes() (int, int) {
	lo, hi := w.n, 0
	for i, x := range w.Widths {
		s := x + len(w.Widths) - 1 - i
		lo, hi = min(lo, s), max(hi, s)
	}
	return lo, hi
}

// IntersectionProof cites why two quorums meet.
func (w *WallSystem) IntersectionProof() string {
	return "Peleg and Wool 1997: two quorums with top rows i ≤ j meet in row j, which one holds whole and the other touches"
}

// NondominatedByTheorem applies to a wall whose top row has one node and
// every other row at least two.
func (w *WallSystem) NondominatedByTheorem() (string, bool) {
	if len(w.Widths) > 0 && w.Widths[0] == 1 && !slices.ContainsFunc(w.Widths[1:], func(x int) bool { return x < 2 }) {
		return "Peleg and Wool 1997: a crumbling wall whose top row has one node and every other row at least two is nondominated", true
	}
	return "", false
}

// ClosedFormLoad returns [WallLoad].
func (w *WallSystem) ClosedFormLoad() (*big.Rat, bool) { return WallLoad(w.Widths) }

// WallLoad returns the load of the crumbling wall with rows of widths
// n_1, …, n_d from the top, 1 / Σ_{i=1..d} Π_{k>i} (1 − 1/n_k), when ok:
// when the balanced strategy of [WallStrategy] exists, which holds
// whenever the widths below the top row do not decrease (the triangle,
// CWlog, the wheel). Package measure proves it.
func WallLoad(widths []int) (load *big.Rat, ok bool) {
	l, pi := WallStrategy(widths)
	return l, pi != nil
}

// WallStrategy returns the lower bound L = 1 / Σ_{i} Π_{k>i} (1 − 1/n_k)
// on the load of the wall with these row widths, and the balanced
// strategy's probabilities of the top rows, π_i = L − P_{i−1}/n_i
// (P_i = π_1 + … + π_i), or nil when one is negative (L is then not the
// load). L is nil for no rows or a row of width < 1.
func WallStrategy(widths []int) (*big.Rat, []*big.Rat) {
	if len(widths) == 0 {
		return nil, nil
	}
	c, prod := new(big.Rat), big.NewRat(1, 1)
	for i := len(widths) - 1; i >= 0; i-- {
		if widths[i] < 1 {
			return nil, nil
		}
		c.Add(c, prod)
		prod.Mul(prod, big.NewRat(int64(widths[i]-1), int64(widths[i])))
	}
	l := new(big.Rat).Inv(c)
	pi := make([]*big.Rat, len(widths))
	p := new(big.Rat)
	for i, w := range widths {
		pi[i] = new(big.Rat).Sub(l, new(big.Rat).Quo(p, big.NewRat(int64(w), 1)))
		if pi[i].Sign() < 0 {
			return l, nil
		}
		p.Add(p, pi[i])
	}
	return l, pi
}

var triangleSpec = Spec{
	Name:    "triangle",
	Summary: "the crumbling wall of widths 1, 2, …, d",
	Source:  "Peleg, Wool 1997",
	Layout:  triangleLayout,
	Params: []Param{
		{Name: "rows", Usage: "number of rows d", Type: Int, Required: true, Min: 1, Max: maxTriangleRows},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) { return system(triangle(ctx, a.Int("rows"))) },
	Typed: func(a Args) (quorum.System, error) {
		widths, params, err := wallShape("triangle", a)
		if err != nil {
			return nil, err
		}
		return newWallSystem("triangle", params, widths)
	},
}

var wheelSpec = Spec{
	Name:    "wheel",
	Summary: "hub and one rim node, or the whole rim",
	Source:  "Peleg, Wool 1997 (the wall 1, n−1)",
	Layout:  wheelLayout,
	Params: []Param{
		{Name: "n", Usage: "number of nodes (the hub and n−1 rim nodes)", Type: Int, Required: true, Min: 3, Max: set.MaxNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) { return system(wheel(ctx, a.Int("n"))) },
	Typed: func(a Args) (quorum.System, error) {
		n := a.Int("n")
		return newWallSystem("wheel", set.Params{"n": n}, []int{1, n - 1})
	},
}

// LoadCertificate returns [WallLoad] with the balanced strategy of
// [WallStrategy] and the node weights that prove it (measure.WallLoad
// gives the argument), on the row-by-row numbering of [Wall]; ok is false
// when the balanced strategy does not exist.
func (w *WallSystem) LoadCertificate() (*big.Rat, func(*set.Set) *big.Rat, []*big.Rat, bool) {
	n, widths := w.n, w.Widths
	l, pi := WallStrategy(widths)
	if pi == nil {
		return nil, nil, nil, false
	}
	start := make([]int, len(widths)+1)
	for i, w := range widths {
		start[i+1] = start[i] + w
	}
	if start[len(widths)] != n {
		return nil, nil, nil, false
	}
	// Node weights: L·w_j/n_j with w_j = Π_{k>j}(1 − 1/n_k).
	y := make([]*big.Rat, n)
	wj := big.NewRat(1, 1)
	for j := len(widths) - 1; j >= 0; j-- {
		per := new(big.Rat).Mul(l, wj)
		per.Quo(per, big.NewRat(int64(widths[j]), 1))
		for v := start[j]; v < start[j+1]; v++ {
			y[v] = per
		}
		wj = new(big.Rat).Mul(wj, big.NewRat(int64(widths[j]-1), int64(widths[j])))
	}
	weight := func(q *set.Set) *big.Rat {
		top := -1
		for i := range widths {
			full, count := true, 0
			for v := start[i]; v < start[i+1]; v++ {
				if q.Has(v) {
					count++
				} else {
					full = false
				}
			}
			switch {
			case top < 0 && full:
				top = i
			case top < 0 && count > 0:
				return nil // a partial row above the full one
			case top >= 0 && count != 1:
				return nil
			}
		}
		if top < 0 {
			return nil
		}
		wq := new(big.Rat).Set(pi[top])
		for j := top + 1; j < len(widths); j++ {
			wq.Quo(wq, big.NewRat(int64(widths[j]), 1))
		}
		return wq
	}
	return l, weight, y, true
}

// maxTriangleRows bounds the rows of the triangle (its nodes fit
// set.MaxNodes).
const maxTriangleRows = 5792

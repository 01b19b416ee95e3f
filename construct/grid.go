package construct

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// MaxGridNodes is the largest grid Grid builds or streams, 2^20 nodes.
const MaxGridNodes = 1 << 20

// GridShape returns the shape Grid gives n ≥ 1 nodes when none is chosen:
// cols = ⌈√n⌉ columns and rows = ⌈n/cols⌉ rows, so that only the last row
// may be short.
func GridShape(n int) (rows, cols int) {
	cols = 1
	for cols*cols < n {
		cols++
	}
	return (n + cols - 1) / cols, cols
}

func checkGrid(rows, cols, n int) error {
	switch {
	case rows < 1 || cols < 1:
		if rows < 1 {
			return paramErrorf("grid", "rows", rows, "must be at least 1")
		}
		return paramErrorf("grid", "cols", cols, "must be at least 1")
	case n > MaxGridNodes || rows > MaxGridNodes || cols > MaxGridNodes:
		return paramErrorf("grid", "n", max(n, rows, cols), "exceeds the largest grid coterie builds, %d nodes", MaxGridNodes)
	case n <= (rows-1)*cols || n > rows*cols:
		return paramErrorf("grid", "n", n, "does not fit %d rows of %d columns: n must be in %d..%d (only the last row may be short)",
			rows, cols, (rows-1)*cols+1, rows*cols)
	}
	return nil
}

// Grid returns Maekawa's grid coterie (Method 2, Maekawa 1985, Section 7)
// on n nodes laid out in rows of cols, row by row: node i (1-based) sits in
// row ⌊(i−1)/cols⌋ and column (i−1) mod cols, both counted from 0, so that
// every row is full except perhaps the last, which holds the
// n − (rows−1)·cols nodes of columns 0, 1, .... Node i owns S_i, and
// quorum i is S_i: the nodes of its row and of its column.
//
// On a full L×L grid every S_i has 2L−1 nodes and every node lies in 2L−1
// sets. When the last row is short (Maekawa's degenerate grid), the columns
// to its right lack their bottom node; row ∪ column is still formed from
// the existing nodes, and any two such sets meet: for nodes (r₁, c₁) and
// (r₂, c₂), the node (r₁, c₂) is in both whenever it exists, and if it does
// not then r₁ is the last row, so r₂ is not, and the node (r₂, c₁) exists
// (c₁ is a column of the short last row) and is in both. So Maekawa's
// completion of short columns "from another row or column" is not needed
// for intersection, and would only add nodes; Grid does not add them.
//
// Two degenerate shapes make some row ∪ column strictly contain another
// node's row ∪ column through the same owner, which as a coterie is not
// minimal and as Maekawa's sets costs needless messages. There the owner
// takes the smaller set, which is one of the others, so every pair of sets
// still meets and every S_i still holds i:
//
//   - When the last row holds a single node (n = (rows−1)·cols + 1, at
//     least two rows), that node's set is column 0, which lies inside the
//     row ∪ column of every node of column 0: they all take column 0.
//   - With exactly two rows and a short second row, the columns beyond it
//     hold one node each, whose set is row 0, inside the row ∪ column of
//     every node of row 0: they all take row 0 (except node 1 when the
//     first rule applies).
//
// Only these shapes need it: a set contains another only if one of them is
// a single row or a single column, which happens for a row of one node (the
// first case) or a column of one node (two rows, the second case). The
// tests check minimality and these rules against the general tightening
// for every shape up to 200 nodes.
//
// n = 0 means rows·cols. The family's Params are "rows", "cols" and, when n
// is given, "n". The explicit family takes about n²/8 bytes; larger grids
// are streamed by the "grid" spec.
func Grid(rows, cols, n int) (*set.Family, error) {
	return grid(context.Background(), rows, cols, n)
}

// grid is [Grid] watching ctx.
func grid(ctx context.Context, rows, cols, n int) (*set.Family, error) {
	params := set.Params{"rows": rows, "cols": cols}
	if n == 0 {
		n = rows * cols
	} else {
		params["n"] = n
	}
	if err := checkGrid(rows, cols, n); err != nil {
		return nil, err
	}
	if err := checkExplicit(fmt.Sprintf("grid: %d×%d", rows, cols), n, n); err != nil {
		return nil, err
	}
	f := gridHeader(n, params)
	f.Quorums = make([]set.Set, n)
	f.Owners = make([]int, n)
	stop := poll{ctx: ctx}
	for i := range n {
		if err := stop.stop(); err != nil {
			return nil, err
		}
		f.Quorums[i].Grow(n)
		gridQuorum(&f.Quorums[i], i, cols, n, (*set.Set).Add)
		f.Owners[i] = i
	}
	f.Canonical()
	return f, nil
}

func gridHeader(n int, params set.Params) *set.Family {
	f := set.NewFamily(n)
	f.Owners = []int{} // every quorum is owned (a streaming CSV writer needs to know)
	f.Kind = "grid"
	f.Params = params
	return f
}

// gridQuorum applies op (Add or Remove) to s for each node of S_i (see
// [Grid]): i's row and column, or column 0 or row 0 alone in the two
// degenerate shapes.
func gridQuorum(s *set.Set, i, cols, n int, op func(*set.Set, int)) {
	rows := (n + cols - 1) / cols
	last := n - (rows-1)*cols // nodes in the last row
	r, c := i/cols, i%cols
	row, col := true, true
	switch {
	case rows >= 2 && last == 1 && c == 0:
		row = false // column 0 alone
	case rows == 2 && last < cols && r == 0:
		col = false // row 0 alone
	}
	if row {
		for j := r * cols; j < min(n, (r+1)*cols); j++ {
			op(s, j)
		}
	}
	if col {
		for j := c; j < n; j += cols {
			if j != i || !row {
				op(s, j)
			}
		}
	}
}

// gridArgs turns the spec's arguments into rows, cols and n (0 if not
// given).
func gridArgs(a Args) (rows, cols, n int, err error) {
	n = a.Int("n")
	switch {
	case a.IsSet("rows") != a.IsSet("cols"):
		missing, given := "cols", "rows"
		if !a.IsSet("rows") {
			missing, given = given, missing
		}
		return 0, 0, 0, paramErrorf("grid", missing, nil, "is required with %s (or give n alone)", given)
	case a.IsSet("rows"):
		rows, cols = a.Int("rows"), a.Int("cols")
		if !a.IsSet("n") {
			n = 0
		}
	case a.IsSet("n"):
		rows, cols = GridShape(n)
	default:
		return 0, 0, 0, paramErrorf("grid", "n", nil, "is required (or rows and cols)")
	}
	return rows, cols, n, nil
}

// SlabSystem is the slab system over the grid [a_1] × … × [a_d] as a
// typed construction: node Σ x_j·(a_1⋯a_{j−1}) (the first coordinate
// varies fastest), and a quorum is one full slab {x : x_j = b} per
// dimension. Maekawa's full grid of rows × cols is the slab system over
// (cols, rows); the (k+1)-cube k-arbiter over a^(k+1) nodes the one over
// (a, …, a), with K = k.
type SlabSystem struct {
	implicitBase
	Dims []int
	k    int
}

func newSlabSystem(kind string, params set.Params, dims []int, k int) (*SlabSystem, error) {
	n := 1
	for _, a := range dims {
		if a < 1 || n > set.MaxNodes/a {
			return nil, errorf(kind, "dimensions %v: out of range", dims)
		}
		n *= a
	}
	return &SlabSystem{implicitBase{kind: kind, params: params, n: n}, slices.Clone(dims), k}, nil
}

// K returns the k of the k-arbiter (1 for the grid).
func (s *SlabSystem) K() int { return s.k }

// HasQuorum reports whether live holds a full slab in every dimension.
func (s *SlabSystem) HasQuorum(live *set.Set) bool {
	stride := 1
	for _, a := range s.Dims {
		found := false
		for b := 0; b < a && !found; b++ {
			full := true
			for v := 0; v < s.n && full; v++ {
				if (v/stride)%a == b && !live.Has(v) {
					full = false
				}
			}
			found = full
		}
		if !found {
			return false
		}
		stride *= a
	}
	return true
}

// QuorumCount returns Π a_j: one slab per dimension.
func (s *SlabSystem) QuorumCount() (*big.Int, bool) {
	c := big.NewInt(1)
	for _, a := range s.Dims {
		c.Mul(c, big.NewInt(int64(a)))
	}
	return c, true
}

// SlabDims returns the dimensions, the first varying fastest.
func (s *SlabSystem) SlabDims() []int { return slices.Clone(s.Dims) }

var gridSpec = Spec{
	Name:    "grid",
	Summary: "Maekawa's grid: each node's row and column; a short last row when n is not rows·cols",
	Source:  "Maekawa 1985, Section 7, Method 2",
	Layout:  rowsCols,
	Params: []Param{
		{Name: "n", Usage: "number of nodes (alone: ⌈√n⌉ columns; with rows and cols: a short last row)",
			Type: Int, Min: 1, Max: MaxGridNodes},
		{Name: "rows", Usage: "number of rows", Type: Int, Min: 1, Max: MaxGridNodes},
		{Name: "cols", Usage: "number of columns", Type: Int, Min: 1, Max: MaxGridNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		rows, cols, n, err := gridArgs(a)
		if err != nil {
			return set.System{}, err
		}
		f, err := grid(ctx, rows, cols, n)
		return set.System{Family: f}, err
	},
	Typed: func(a Args) (quorum.System, error) {
		rows, cols, n, err := gridArgs(a)
		if err != nil {
			return nil, err
		}
		if n != 0 && n != rows*cols {
			return nil, errorf("grid", "%d nodes on %d×%d: a degenerate grid has no typed form", n, rows, cols)
		}
		return newSlabSystem("grid", set.Params{"rows": rows, "cols": cols}, []int{cols, rows}, 1)
	},
	Stream: func(a Args) (*set.Family, iter.Seq2[*set.Set, int], error) {
		rows, cols, n, err := gridArgs(a)
		if err != nil {
			return nil, nil, err
		}
		params := set.Params{"rows": rows, "cols": cols}
		if n == 0 {
			n = rows * cols
		} else {
			params["n"] = n
		}
		if err := checkGrid(rows, cols, n); err != nil {
			return nil, nil, err
		}
		seq := func(yield func(*set.Set, int) bool) {
			s := set.New(n)
			for i := range n {
				gridQuorum(s, i, cols, n, (*set.Set).Add)
				if !yield(s, i) {
					return
				}
				gridQuorum(s, i, cols, n, (*set.Set).Remove)
			}
		}
		return gridHeader(n, params), seq, nil
	},
}

package construct

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// CGrid returns the grid protocol of Cheung, Ammar and Ahamad ("The grid
// protocol: a high performance scheme for maintaining replicated data",
// IEEE ICDE 1990; IEEE TKDE 4(6), 1992) as a coterie: rows·cols nodes
// numbered row by row (node r·cols + c), and a quorum is one full column
// together with one node of every other column. A full column meets every
// quorum's node in that column. The family has cols·rows^(cols−1) quorums;
// CGrid refuses more than MaxCatalogueQuorums.
func CGrid(rows, cols int) (*set.Family, error) {
	return cgrid(context.Background(), rows, cols)
}

// cgrid is [CGrid] watching ctx.
func cgrid(ctx context.Context, rows, cols int) (*set.Family, error) {
	if rows < 1 || cols < 1 || rows*cols > set.MaxNodes {
		return nil, fmt.Errorf("construct: cgrid: %d rows and %d columns: need both ≥ 1 and at most %d nodes", rows, cols, set.MaxNodes)
	}
	n := rows * cols
	count := tooMany()
	if cols <= 1<<12 {
		count.Mul(big.NewInt(int64(cols)), bigPow(big.NewInt(int64(rows)), cols-1))
	}
	if err := checkCount(fmt.Sprintf("cgrid: %d×%d", rows, cols), count, n); err != nil {
		return nil, err
	}
	col := make([][]int, cols)
	for c := range cols {
		for r := range rows {
			col[c] = append(col[c], r*cols+c)
		}
	}
	return collect(ctx, n, "cgrid", set.Params{"rows": rows, "cols": cols}, func(s *set.Set, emit func()) {
		for c := range cols {
			for _, v := range col[c] {
				s.Add(v)
			}
			others := append(append([][]int{}, col[:c]...), col[c+1:]...)
			product(s, others, emit)
			for _, v := range col[c] {
				s.Remove(v)
			}
		}
	})
}

// BGridCount returns the number of quorums of [BGrid](cols, bands,
// bandRows): cols^bands choices of mini-columns, times bands, times
// bandRows^(cols−1) representatives (for cols, bandRows ≥ 2); with more
// than 4,096 bands or columns it returns 2^4096 instead.
func BGridCount(cols, bands, bandRows int) *big.Int {
	if bands > 1<<12 || cols > 1<<12 {
		return tooMany()
	}
	c := bigPow(big.NewInt(int64(cols)), bands)
	c.Mul(c, big.NewInt(int64(bands)))
	return c.Mul(c, bigPow(big.NewInt(int64(bandRows)), cols-1))
}

// BGrid returns the B-grid of Naor and Wool ("The load, capacity, and
// availability of quorum systems", SIAM J. Comput. 27(2), 1998, Section 5):
// n = cols·bands·bandRows nodes in a grid of cols columns and
// bands·bandRows rows, numbered row by row (node row·cols + col). The rows
// are split into bands of bandRows consecutive rows; a mini-column is the
// part of a column inside one band. A quorum is one mini-column in every
// band, together with one representative node of every mini-column of one
// band. Two quorums meet: the second's representatives of its band b meet
// the first's mini-column in band b.
//
// Every quorum has bands·bandRows + cols − 1 nodes. BGrid refuses more than
// MaxCatalogueQuorums quorums (see [BGridCount]).
func BGrid(cols, bands, bandRows int) (*set.Family, error) {
	return bgrid(context.Background(), cols, bands, bandRows)
}

// bgrid is [BGrid] watching ctx.
func bgrid(ctx context.Context, cols, bands, bandRows int) (*set.Family, error) {
	if cols < 1 || bands < 1 || bandRows < 1 {
		return nil, fmt.Errorf("construct: bgrid: %d columns, %d bands of %d rows: all must be at least 1", cols, bands, bandRows)
	}
	if cols*bands > set.MaxNodes || cols*bands*bandRows > set.MaxNodes {
		return nil, fmt.Errorf("construct: bgrid: more than %d nodes", set.MaxNodes)
	}
	n := cols * bands * bandRows
	what := fmt.Sprintf("bgrid: %d columns, %d bands of %d rows", cols, bands, bandRows)
	if err := checkCount(what, BGridCount(cols, bands, bandRows), n); err != nil {
		return nil, err
	}
	// mini[b][c] lists the nodes of mini-column c of band b.
	mini := make([][][]int, bands)
	for b := range bands {
		mini[b] = make([][]int, cols)
		for c := range cols {
			for i := range bandRows {
				mini[b][c] = append(mini[b][c], (b*bandRows+i)*cols+c)
			}
		}
	}
	params := set.Params{"cols": cols, "bands": bands, "band-rows": bandRows}
	return collect(ctx, n, "bgrid", params, func(s *set.Set, emit func()) {
		choice := make([]int, bands)
		var pick func(b int)
		pick = func(b int) {
			if b == bands {
				for rb := range bands {
					var others [][]int
					for c := range cols {
						if c != choice[rb] {
							others = append(others, mini[rb][c])
						}
					}
					product(s, others, emit)
				}
				return
			}
			for c := range cols {
				choice[b] = c
				for _, v := range mini[b][c] {
					s.Add(v)
				}
				pick(b + 1)
				for _, v := range mini[b][c] {
					s.Remove(v)
				}
			}
		}
		pick(0)
	})
}

var cgridSpec = Spec{
	Name:    "cgrid",
	Summary: "grid protocol: one full column plus one node of every column",
	Source:  "Cheung, Ammar, Ahamad 1990",
	Layout:  rowsCols,
	Params: []Param{
		{Name: "rows", Usage: "number of rows", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "cols", Usage: "number of columns", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		return system(cgrid(ctx, a.Int("rows"), a.Int("cols")))
	},
	Typed: func(a Args) (quorum.System, error) {
		r, c := a.Int("rows"), a.Int("cols")
		if r < 1 || c < 1 || r > set.MaxNodes/c {
			return nil, errorf("cgrid", "%d×%d: out of range", r, c)
		}
		return &CGridSystem{implicitBase{kind: "cgrid", params: set.Params{"rows": r, "cols": c}, n: r * c}, r, c}, nil
	},
}

// CGridSystem is [CGrid] as a typed construction: node row·cols + col;
// live when some column is all up and every column has a node up.
type CGridSystem struct {
	implicitBase
	Rows, Cols int
}

// HasQuorum reports whether some column is all in live and every column
// meets live.
func (g *CGridSystem) HasQuorum(live *set.Set) bool {
	someFull := false
	for col := range g.Cols {
		full, ne := true, false
		for row := range g.Rows {
			h := live.Has(row*g.Cols + col)
			full, ne = full && h, ne || h
		}
		if !ne {
			return false
		}
		someFull = someFull || full
	}
	return someFull
}

// QuorumCount returns cols · rows^(cols−1): a full column, and one node of
// each other column.
func (g *CGridSystem) QuorumCount() (*big.Int, bool) {
	c := new(big.Int).Exp(big.NewInt(int64(g.Rows)), big.NewInt(int64(g.Cols-1)), nil)
	return c.Mul(c, big.NewInt(int64(g.Cols))), true
}

var bgridSpec = Spec{
	Name:    "bgrid",
	Summary: "B-grid: a mini-column in every band plus a representative of every mini-column of one band",
	Source:  "Naor, Wool 1998, Section 5",
	Layout:  bgridLayout,
	Params: []Param{
		{Name: "cols", Usage: "number of columns", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "bands", Usage: "number of bands", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "band-rows", Usage: "rows per band (the mini-column height)", Type: Int, Default: 2, Min: 1, Max: set.MaxNodes},
	},
	BuildContext: func(ctx context.Context, a Args) (set.System, error) {
		return system(bgrid(ctx, a.Int("cols"), a.Int("bands"), a.Int("band-rows")))
	},
	Typed: func(a Args) (quorum.System, error) {
		c, b, r := a.Int("cols"), a.Int("bands"), a.Int("band-rows")
		if c < 1 || b < 1 || r < 1 || c > set.MaxNodes/b || c*b > set.MaxNodes/r {
			return nil, errorf("bgrid", "%d columns, %d bands of %d rows: out of range", c, b, r)
		}
		params := set.Params{"cols": c, "bands": b, "band-rows": r}
		return &BGridSystem{implicitBase{kind: "bgrid", params: params, n: c * b * r}, c, b, r}, nil
	},
}

// BGridSystem is [BGrid] as a typed construction: node (band·bandRows +
// i)·cols + col; live when every band has a mini-column all up and some
// band has a node up in each of its mini-columns.
type BGridSystem struct {
	implicitBase
	Cols, Bands, BandRows int
}

// HasQuorum reports whether every band has a full mini-column in live and
// some band meets every one of its mini-columns.
func (g *BGridSystem) HasQuorum(live *set.Set) bool {
	covered := false
	for band := range g.Bands {
		full, cov := false, true
		for col := range g.Cols {
			all, any := true, false
			for i := range g.BandRows {
				h := live.Has((band*g.BandRows+i)*g.Cols + col)
				all, any = all && h, any || h
			}
			full, cov = full || all, cov && any
		}
		if !full {
			return false
		}
		covered = covered || cov
	}
	return covered
}

// QuorumCount returns bands · cols^bands · bandRows^(cols−1): a
// mini-column per band, and one band's representatives. ok is false below
// two columns or two rows per band, where quorums coincide.
func (g *BGridSystem) QuorumCount() (*big.Int, bool) {
	if g.Cols < 2 || g.BandRows < 2 {
		return nil, false
	}
	c := new(big.Int).Exp(big.NewInt(int64(g.Cols)), big.NewInt(int64(g.Bands)), nil)
	c.Mul(c, big.NewInt(int64(g.Bands)))
	return c.Mul(c, new(big.Int).Exp(big.NewInt(int64(g.BandRows)), big.NewInt(int64(g.Cols-1)), nil)), true
}

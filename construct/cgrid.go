package construct

import (
	"fmt"
	"math/big"

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
	return collect(n, "cgrid", set.Params{"rows": rows, "cols": cols}, func(s *set.Set, emit func()) {
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
	}), nil
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
	return collect(n, "bgrid", params, func(s *set.Set, emit func()) {
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
	}), nil
}

var cgridSpec = Spec{
	Name:    "cgrid",
	Summary: "grid protocol: one full column plus one node of every column",
	Source:  "Cheung, Ammar, Ahamad 1990",
	Params: []Param{
		{Name: "rows", Usage: "number of rows", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "cols", Usage: "number of columns", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
	},
	Build: func(a Args) (set.System, error) { return system(CGrid(a.Int("rows"), a.Int("cols"))) },
}

var bgridSpec = Spec{
	Name:    "bgrid",
	Summary: "B-grid: a mini-column in every band plus a representative of every mini-column of one band",
	Source:  "Naor, Wool 1998, Section 5",
	Params: []Param{
		{Name: "cols", Usage: "number of columns", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "bands", Usage: "number of bands", Type: Int, Required: true, Min: 1, Max: set.MaxNodes},
		{Name: "band-rows", Usage: "rows per band (the mini-column height)", Type: Int, Default: 2, Min: 1, Max: set.MaxNodes},
	},
	Build: func(a Args) (set.System, error) {
		return system(BGrid(a.Int("cols"), a.Int("bands"), a.Int("band-rows")))
	},
}

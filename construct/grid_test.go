package construct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// TestGridIntersects proves, by checking every pair, that the degenerate
// grid's sets meet for every N from 2 to 200 in the default shape, and for
// every shape (any number of columns) up to N = 60.
func TestGridIntersects(t *testing.T) {
	for n := 2; n <= 200; n++ {
		rows, cols := GridShape(n)
		shapes := [][2]int{{rows, cols}}
		if n <= 60 {
			for c := 1; c <= n; c++ {
				shapes = append(shapes, [2]int{(n + c - 1) / c, c})
			}
		}
		for _, sh := range shapes {
			f, err := Grid(sh[0], sh[1], n)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Validate(); err != nil {
				t.Fatal(err)
			}
			checkOwned(t, f)
			checkIntersecting(t, f)
			checkGridSets(t, f, sh[0], sh[1])
		}
		// The default shape has the smallest total size of any column count.
		f, _ := Grid(rows, cols, n)
		for c := 1; c <= n; c++ {
			if s := gridTotal(n, c); s < totalSize(f) {
				t.Errorf("N = %d: %d columns give total size %d < %d with %d columns", n, c, s, totalSize(f), cols)
			}
		}
	}
}

// gridTotal counts the total size of the grid's sets from the row and
// column lengths: node i's set has |row| + |column| − 1 nodes.
func gridTotal(n, cols int) int {
	s := 0
	for i := range n {
		r, c := i/cols, i%cols
		rowLen := min(n, (r+1)*cols) - r*cols
		colLen := (n - c + cols - 1) / cols
		s += rowLen + colLen - 1
	}
	return s
}

// checkGridSets checks each S_i against the documented layout. Node j is
// in the plain set of i iff it shares i's row or column (computed from
// coordinates); S_i must be the smallest plain set through i that lies
// inside i's own plain set (Grid's two rules stand for this general
// tightening), and no S_j may lie strictly inside S_i: the family is
// minimal, equal sets with different owners apart.
func checkGridSets(t *testing.T, f *set.Family, rows, cols int) {
	t.Helper()
	n := f.N
	plain := make([]*set.Set, n)
	for i := range n {
		plain[i] = set.New(n)
		for j := range n {
			if j/cols == i/cols || j%cols == i%cols {
				plain[i].Add(j)
			}
		}
	}
	for i := range n {
		got := &f.Quorums[i]
		best := plain[i]
		for j := range n {
			if plain[j].Has(i) && set.Subset(plain[j], plain[i]) && plain[j].Len() < best.Len() {
				best = plain[j]
			}
		}
		if !got.Has(i) || got.Len() != best.Len() || !set.Subset(got, plain[i]) {
			t.Fatalf("%d×%d grid, n = %d: S_%d = %v, want a set of %d nodes through %d inside %v",
				rows, cols, n, i+1, got, best.Len(), i+1, plain[i])
		}
		for j := range n {
			if set.Subset(&f.Quorums[j], got) && !set.Equal(&f.Quorums[j], got) {
				t.Fatalf("%d×%d grid, n = %d: S_%d = %v lies inside S_%d = %v", rows, cols, n, j+1, &f.Quorums[j], i+1, got)
			}
		}
	}
}

// TestGridSquare checks Method 2 on a full L×L grid: |S_i| = 2L−1 and every
// node lies in 2L−1 sets (Maekawa 1985, Section 7).
func TestGridSquare(t *testing.T) {
	for l := 1; l <= 12; l++ {
		f, err := Grid(l, l, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Quorums {
			if f.Quorums[i].Len() != 2*l-1 {
				t.Fatalf("L = %d: |S_%d| = %d", l, i+1, f.Quorums[i].Len())
			}
		}
		for v, d := range f.Degrees() {
			if d != 2*l-1 {
				t.Fatalf("L = %d: node %d in %d sets", l, v+1, d)
			}
		}
		if fmt.Sprint(f.Params) != fmt.Sprintf("map[cols:%d rows:%d]", l, l) {
			t.Errorf("Params = %v", f.Params)
		}
	}
	// The paper's example numbering on 3×3: S_5 = row 2 ∪ column 2.
	f, _ := Grid(3, 3, 0)
	if got := f.Quorums[4].String(); got != "{1 3 4 5 7}" {
		t.Errorf("S_5 of the 3×3 grid = %s (0-based), want {1 3 4 5 7}", got)
	}
}

func TestGridShape(t *testing.T) {
	for _, tt := range []struct{ n, rows, cols int }{
		{1, 1, 1}, {2, 1, 2}, {3, 2, 2}, {4, 2, 2}, {5, 2, 3}, {7, 3, 3}, {10, 3, 4}, {16, 4, 4}, {17, 4, 5}, {21, 5, 5},
	} {
		if r, c := GridShape(tt.n); r != tt.rows || c != tt.cols {
			t.Errorf("GridShape(%d) = %d, %d; want %d, %d", tt.n, r, c, tt.rows, tt.cols)
		}
	}
}

func TestGridArgs(t *testing.T) {
	for _, tt := range []struct {
		args   map[string]any
		params string
		err    string
	}{
		{map[string]any{"n": 10}, "map[cols:4 n:10 rows:3]", ""},
		{map[string]any{"rows": 2, "cols": 5}, "map[cols:5 rows:2]", ""},
		{map[string]any{"rows": 3, "cols": 4, "n": 9}, "map[cols:4 n:9 rows:3]", ""},
		{map[string]any{"rows": 3, "cols": 4, "n": 8}, "", "construct: grid: n = 8 does not fit 3 rows of 4 columns: n must be in 9..12"},
		{map[string]any{"rows": 3}, "", "cols is required with rows (or give n alone)"},
		{map[string]any{}, "", "n is required (or rows and cols)"},
		{map[string]any{"rows": 2048, "cols": 1024}, "", "n = 2097152 exceeds the largest grid"},
		{map[string]any{"n": 200000}, "", "take 4.66 GiB in memory"},
	} {
		a, err := NewArgs(gridSpec, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := gridSpec.complete().Build(a)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("grid %v: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(sys.Family.Params); got != tt.params || sys.Family.Kind != "grid" {
			t.Errorf("grid %v: Kind %q, Params %s, want %s", tt.args, sys.Family.Kind, got, tt.params)
		}
		got := streamed(t, gridSpec, tt.args)
		if fmt.Sprint(got.Params) != tt.params || len(got.Quorums) != len(sys.Family.Quorums) {
			t.Fatalf("grid %v: stream Params %v, %d quorums", tt.args, got.Params, len(got.Quorums))
		}
		for i := range got.Quorums {
			if !set.Equal(&got.Quorums[i], &sys.Family.Quorums[i]) || got.Owners[i] != i {
				t.Fatalf("grid %v: streamed S_%d = %v, built %v", tt.args, i+1, &got.Quorums[i], &sys.Family.Quorums[i])
			}
		}
	}
}

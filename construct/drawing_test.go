package construct_test

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// TestDrawnLayouts checks the layout each construction claims against
// the family it builds: a grid's rows and columns hold exactly its nodes
// and every quorum holds a full row or column of them (Maekawa's row and
// column, Cheung's column, the B-grid's and M-grid's columns of the
// square); the rows of a wall add up to its nodes, with a quorum holding
// a full row; the other layouts name themselves; constructions with no
// picture of their own are no Drawer.
func TestDrawnLayouts(t *testing.T) {
	for _, c := range []struct {
		kind string
		vals map[string]any
		want string
	}{
		{"grid", map[string]any{"rows": 3, "cols": 4}, "grid"},
		{"grid", map[string]any{"n": 10}, "grid"},
		{"cgrid", map[string]any{"rows": 3, "cols": 4}, "grid"},
		{"bgrid", map[string]any{"cols": 3, "bands": 2}, "grid"},
		{"mgrid", map[string]any{"n": 16, "b": 1}, "grid"},
		{"wall", map[string]any{"widths": "1,2,3"}, "rows"},
		{"triangle", map[string]any{"rows": 4}, "rows"},
		{"wheel", map[string]any{"n": 6}, "rows"},
		{"tree", map[string]any{"degree": 2, "height": 2}, "tree"},
		{"hqc", map[string]any{"levels": "3,3"}, "hqc"},
		{"billiard", map[string]any{"q": 5}, "billiard"},
		{"cube", map[string]any{"a": 2, "k": 1}, "cube"},
		{"fpp", map[string]any{"order": 2}, ""},
		{"majority", map[string]any{"n": 5}, ""},
	} {
		spec, _ := construct.Lookup(c.kind)
		args, err := construct.NewArgs(spec, c.vals)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := spec.Build(args)
		if err != nil {
			t.Fatal(err)
		}
		f := sys.Family
		if f.IsThreshold() {
			if f, err = f.Enumerate(1000); err != nil {
				t.Fatal(err)
			}
		}
		d, ok := construct.Drawn(f)
		if !ok || d.Kind() != c.kind {
			t.Fatalf("%s: Drawn: %v %v", c.kind, d, ok)
		}
		dr, isDrawer := d.(quorum.Drawer)
		if c.want == "" {
			if isDrawer {
				t.Errorf("%s: a Drawer", c.kind)
			}
			continue
		}
		if !isDrawer {
			t.Fatalf("%s: not a Drawer", c.kind)
		}
		lay, ok := dr.DrawLayout()
		if !ok || lay.Name != c.want {
			t.Fatalf("%s %v: layout %v %v, want %s", c.kind, c.vals, lay, ok, c.want)
		}
		var lines [][]int // node groups a quorum may hold whole
		switch lay.Name {
		case "grid":
			rows, cols := lay.Dims[0], lay.Dims[1]
			if f.N > rows*cols || f.N <= (rows-1)*cols {
				t.Errorf("%s: %d nodes on %d×%d", c.kind, f.N, rows, cols)
			}
			for r := range rows {
				var row []int
				for col := range cols {
					if v := r*cols + col; v < f.N {
						row = append(row, v)
					}
				}
				lines = append(lines, row)
			}
			for col := range cols {
				var column []int
				for r := range rows {
					if v := r*cols + col; v < f.N {
						column = append(column, v)
					}
				}
				lines = append(lines, column)
			}
		case "rows":
			v := 0
			for _, w := range lay.Dims {
				var row []int
				for range w {
					row = append(row, v)
					v++
				}
				lines = append(lines, row)
			}
			if v != f.N {
				t.Errorf("%s: rows %v hold %d nodes, not %d", c.kind, lay.Dims, v, f.N)
			}
		}
		if lines != nil && c.kind != "bgrid" { // a B-grid quorum holds mini-columns only
			for i := range f.Quorums {
				q := &f.Quorums[i]
				whole := false
				for _, l := range lines {
					all := true
					for _, v := range l {
						all = all && q.Has(v)
					}
					whole = whole || all
				}
				if !whole {
					t.Errorf("%s: quorum %v holds no whole row or column of the layout", c.kind, q)
					break
				}
			}
		}
	}
	// A grid whose params do not hold its nodes has no layout; a family of
	// no known kind is not drawn by a construction.
	g := &set.Family{N: 20, K: 1, Kind: "grid", Params: set.Params{"rows": 3, "cols": 3}}
	if d, ok := construct.Drawn(g); !ok {
		t.Error("grid: not Drawn")
	} else if _, ok := d.(quorum.Drawer).DrawLayout(); ok {
		t.Error("20 nodes on 3×3: a layout")
	}
	if _, ok := construct.Drawn(&set.Family{N: 3, K: 1, Kind: "mystery"}); ok {
		t.Error("an unknown kind is Drawn")
	}
	j, err := construct.JoinContext(context.Background(), mustFamily(t, "fpp", map[string]any{"order": 2}), mustFamily(t, "fpp", map[string]any{"order": 2}), 2, 100000)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := construct.Drawn(j); !ok {
		t.Error("join: not Drawn")
	} else if lay, ok := d.(quorum.Drawer).DrawLayout(); !ok || lay.Name != "join" {
		t.Errorf("join: %v %v", lay, ok)
	}
}

func mustFamily(t *testing.T, kind string, vals map[string]any) *set.Family {
	t.Helper()
	spec, _ := construct.Lookup(kind)
	args, err := construct.NewArgs(spec, vals)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	return sys.Family
}

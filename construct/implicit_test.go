package construct

import (
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// An implicit family materialises to exactly the family its construction
// builds, with the count its *Count function gives, and it records the
// params the construction records (so a file round-trips).
func TestImplicitMaterialize(t *testing.T) {
	cases := []struct {
		kind   string
		params set.Params
		build  func() (*set.Family, error)
	}{
		{"tree", set.Params{"degree": 2, "height": 3}, func() (*set.Family, error) { return Tree(2, 3) }},
		{"tree", set.Params{"degree": 3, "height": 2}, func() (*set.Family, error) { return Tree(3, 2) }},
		{"hqc", set.Params{"levels": "3,3,3"}, func() (*set.Family, error) { return HQC([]int{3, 3, 3}) }},
		{"wall", set.Params{"widths": "1,2,3,3"}, func() (*set.Family, error) { return Wall([]int{1, 2, 3, 3}) }},
		{"wall", set.Params{"cwlog": true, "n": 30}, func() (*set.Family, error) { return CWlog(30) }},
		{"triangle", set.Params{"rows": 5}, func() (*set.Family, error) { return Triangle(5) }},
		{"vote", set.Params{"weights": "3,2,2,1,1,1"}, func() (*set.Family, error) { return Vote([]int{3, 2, 2, 1, 1, 1}, 0) }},
	}
	for _, c := range cases {
		f, err := Implicit(c.kind, c.params)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.params, err)
		}
		want, err := c.build()
		if err != nil {
			t.Fatal(err)
		}
		if !f.IsImplicit() || f.N != want.N || f.Kind != want.Kind || f.Quorums != nil {
			t.Errorf("%s %v: implicit family %v, want n = %d and no quorums", c.kind, c.params, f, want.N)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("%s %v: %v", c.kind, c.params, err)
		}
		if a, b := fmtParams(f.Params), fmtParams(want.Params); a != b {
			t.Errorf("%s: params %s, the construction records %s", c.kind, a, b)
		}
		got, err := Materialize(f, 1<<20)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.params, err)
		}
		if got.String() != want.String() || got.IsImplicit() {
			t.Errorf("%s %v: materialised\n%v\nwant\n%v", c.kind, c.params, got, want)
		}
		checkIntersecting(t, got)
		if n, ok := Count(f); c.kind != "vote" && (!ok || n.Cmp(big.NewInt(int64(len(want.Quorums)))) != 0) {
			t.Errorf("%s %v: Count %v (%v), the construction has %d", c.kind, c.params, n, ok, len(want.Quorums))
		}
		// One quorum under the count is refused, with ErrTooMany.
		if _, err := Materialize(f, len(want.Quorums)-1); !errors.Is(err, set.ErrTooMany) {
			t.Errorf("%s %v: limit below the count: %v, want ErrTooMany", c.kind, c.params, err)
		}
	}
}

// fmtParams formats the params of the implicit kinds in a fixed order.
func fmtParams(p set.Params) string {
	s := ""
	for _, k := range []string{"cwlog", "degree", "height", "levels", "n", "rows", "threshold", "weights", "widths"} {
		if v, ok := p[k]; ok {
			s += k + "=" + toString(v) + ";"
		}
	}
	return s
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "true"
		}
		return "false"
	case int:
		return big.NewInt(int64(x)).String()
	}
	return "?"
}

// The parameters of a height-10 tree and a 1,000-node CWlog make families
// far past every limit: the implicit form counts them without listing.
func TestImplicitLarge(t *testing.T) {
	tree, err := Implicit("tree", set.Params{"degree": 2, "height": 10})
	if err != nil {
		t.Fatal(err)
	}
	// T(h) = 2^(2^h) − 1 quorums for the binary tree.
	want := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1024), big.NewInt(1))
	if c, ok := Count(tree); !ok || c.Cmp(want) != 0 || tree.N != 2047 {
		t.Errorf("tree height 10: n = %d, count %v, want 2047 and 2^1024 − 1", tree.N, c)
	}
	if _, err := Materialize(tree, 1<<20); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("materialising the height-10 tree: %v, want ErrTooMany", err)
	}
	// Params as a JSON file holds them: numbers as float64.
	wall, err := Implicit("wall", set.Params{"cwlog": true, "n": float64(1000)})
	if err != nil {
		t.Fatal(err)
	}
	if wall.N != 1000 || wall.Params["widths"] != joinInts(CWlogWidths(1000)) {
		t.Errorf("CWlog 1000: %v", wall)
	}
}

// Bad kinds and params are refused, those of one parameter as a
// *ParamError naming it.
func TestImplicitRefusals(t *testing.T) {
	cases := []struct {
		kind   string
		params set.Params
		param  string // "" for an error about the kind
	}{
		{"fractal", nil, ""},
		{"fpp", set.Params{"order": 3}, ""},
		{"tree", set.Params{"degree": 2, "height": -1}, "height"},
		{"tree", set.Params{"degree": 2.5, "height": 3}, "degree"},
		{"tree", set.Params{"height": 3, "colour": "red"}, "colour"},
		{"tree", set.Params{"degree": 2}, "height"},
		{"wall", set.Params{"widths": "1,1"}, "params"},
		{"wall", set.Params{"widths": "1,x"}, "widths"},
		{"wall", set.Params{"cwlog": true, "n": 9, "widths": "1,2"}, "widths"},
		{"wall", set.Params{"n": 9}, "params"},
		{"hqc", set.Params{"levels": "4096,4096,4096"}, "levels"},
		{"vote", set.Params{"weights": "2,2,2"}, "weights"},
		{"vote", set.Params{"weights": "3,1,1", "threshold": 2}, "params"},
	}
	for _, c := range cases {
		_, err := Implicit(c.kind, c.params)
		if err == nil {
			t.Errorf("%s %v: accepted", c.kind, c.params)
			continue
		}
		var pe *ParamError
		switch {
		case c.param == "" && errors.As(err, &pe):
			t.Errorf("%s %v: %v is a parameter's error, want the kind's", c.kind, c.params, err)
		case c.param != "" && (!errors.As(err, &pe) || pe.Parameter() != c.param):
			t.Errorf("%s %v: %v, want an error of parameter %s", c.kind, c.params, err, c.param)
		}
	}
}

package construct

import (
	"fmt"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

func TestSpecsSortedAndFound(t *testing.T) {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name)
		got, ok := Lookup(s.Name)
		if !ok || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got.Name, ok)
		}
		if s.Summary == "" || s.Source == "" || s.Build == nil {
			t.Errorf("%s: summary, source or Build missing", s.Name)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("specs not sorted: %v", names)
	}
	for _, want := range []string{"billiard", "cube", "majority", "uniform"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s not registered (have %v)", want, names)
		}
	}
}

// build runs spec name with vals as the command line would.
func build(name string, vals map[string]any) (set.System, error) {
	spec, ok := Lookup(name)
	if !ok {
		panic("no spec " + name)
	}
	a, err := NewArgs(spec, vals)
	if err != nil {
		return set.System{}, err
	}
	return spec.Build(a)
}

func TestSpecBuild(t *testing.T) {
	for _, tt := range []struct {
		name   string
		vals   map[string]any
		hk     bool
		levels []int
		kind   string
		params string
		n      int
	}{
		{"billiard", map[string]any{"q": 5}, false, nil, "billiard", "map[q:5]", 12},
		{"majority", map[string]any{"n": 7}, false, nil, "majority", "map[n:7]", 7},
		{"uniform", map[string]any{"n": 7, "k": 2}, false, nil, "uniform", "map[k:2 n:7]", 7},
		{"uniform", map[string]any{"n": 7, "k": 3, "h": 2}, true, []int{2}, "uniform", "map[h:2 k:3 n:7]", 7},
		{"uniform", map[string]any{"n": 7, "k": 3, "hk": true}, true, []int{1, 2, 3}, "uniform", "map[k:3 n:7]", 7},
		{"cube", map[string]any{"a": 3, "k": 2}, false, nil, "cube", "map[a:3 k:2]", 27},
		{"cube", map[string]any{"a": 3, "k": 2, "n": 20}, false, nil, "cube", "map[a:3 k:2 n:20]", 20},
		{"cube", map[string]any{"k": 2, "n": 20}, false, nil, "cube", "map[a:3 k:2 n:20]", 20},
		{"cube", map[string]any{"k": 1, "n": 100}, false, nil, "cube", "map[a:10 k:1]", 100},
		{"cube", map[string]any{"a": 3, "k": 3, "h": 3}, true, []int{3}, "cube", "map[a:3 h:3 k:3]", 81},
		{"cube", map[string]any{"a": 2, "k": 3, "hk": true, "n": 10}, true, []int{1, 2, 3}, "cube", "map[a:2 k:3 n:10]", 10},
	} {
		sys, err := build(tt.name, tt.vals)
		if err != nil {
			t.Fatalf("%s %v: %v", tt.name, tt.vals, err)
		}
		if err := sys.Validate(); err != nil {
			t.Fatalf("%s %v: %v", tt.name, tt.vals, err)
		}
		var params set.Params
		if sys.HK != nil {
			params = sys.HK.Params
		} else {
			params = sys.Family.Params
		}
		if (sys.HK != nil) != tt.hk || sys.Kind() != tt.kind || sys.N() != tt.n || fmt.Sprint(params) != tt.params {
			t.Errorf("%s %v: hk %v, kind %q, n %d, params %v", tt.name, tt.vals, sys.HK != nil, sys.Kind(), sys.N(), params)
		}
		if sys.HK != nil {
			var hs []int
			for _, l := range sys.HK.Levels {
				hs = append(hs, l.H)
			}
			if !slices.Equal(hs, tt.levels) {
				t.Errorf("%s %v: levels %v, want %v", tt.name, tt.vals, hs, tt.levels)
			}
		}
		// Deterministic: a second run gives the same system.
		again, _ := build(tt.name, tt.vals)
		sameSystem(t, sys, again)
	}
}

func TestSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		name        string
		vals        map[string]any
		param, want string
	}{
		{"billiard", map[string]any{"q": 8}, "q", "q = 8 must be odd"},
		{"billiard", map[string]any{"q": 1}, "q", "q = 1 is out of range 3..5791"},
		{"billiard", map[string]any{}, "q", "billiard: q is required"},
		{"billiard", map[string]any{"q": "x"}, "q", "q = x must be an integer"},
		{"billiard", map[string]any{"p": 3}, "p", "p = 3 is not a parameter of billiard"},
		{"majority", map[string]any{"n": 0}, "n", "n = 0 is out of range"},
		{"uniform", map[string]any{"n": 5, "k": 0}, "k", "k = 0 is out of range"},
		{"uniform", map[string]any{"n": 5, "k": 2, "h": 3}, "h", "h = 3 is out of range 1..k = 2"},
		{"uniform", map[string]any{"n": 5, "k": 2, "h": 1, "hk": true}, "hk", "hk excludes h"},
		{"uniform", map[string]any{"n": 5}, "k", "uniform: k is required"},
		{"cube", map[string]any{"a": 1, "k": 2}, "a", "a = 1 is out of range"},
		{"cube", map[string]any{"a": 3, "k": 0}, "k", "k = 0 is out of range"},
		{"cube", map[string]any{"a": 3, "k": 2, "h": 3}, "h", "h = 3 is out of range 1..k = 2"},
		{"cube", map[string]any{"k": 2}, "a", "a is required unless n is given"},
		{"cube", map[string]any{"a": 3, "k": 2, "n": 5}, "n", "take a = 2"},
		{"cube", map[string]any{"a": 3, "k": 2, "h": 1, "hk": true}, "hk", "hk excludes h"},
	} {
		_, err := build(tt.name, tt.vals)
		checkParamError(t, err, tt.param, tt.want)
	}
}

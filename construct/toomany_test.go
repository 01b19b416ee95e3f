package construct

import (
	"context"
	"strings"
	"testing"
)

// A construction is written implicitly past MaxCatalogueQuorums quorums:
// by its count (trees of growing height cross the line) or, for weighted
// voting, whose count is not known, by whether listing it fails.
func TestTooManyToList(t *testing.T) {
	ctx := context.Background()
	try := func(name string, vals map[string]any) bool {
		t.Helper()
		spec, ok := Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		a, err := NewArgs(spec, vals)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ImplicitFamily(spec, a)
		if err != nil {
			t.Fatal(err)
		}
		return TooManyToList(ctx, spec, a, f)
	}
	crossed := false
	for h := 1; h <= 8; h++ {
		spec, _ := Lookup("tree")
		a, _ := NewArgs(spec, map[string]any{"degree": 3, "height": h})
		f, _ := ImplicitFamily(spec, a)
		c, ok := Count(f)
		if !ok {
			t.Fatalf("tree of height %d: no count", h)
		}
		want := c.Int64() > MaxCatalogueQuorums || !c.IsInt64()
		if got := try("tree", map[string]any{"degree": 3, "height": h}); got != want {
			t.Errorf("tree of height %d, %s quorums: %v, want %v", h, c, got, want)
		}
		crossed = crossed || want
	}
	if !crossed {
		t.Error("no tree crossed the line")
	}
	if try("vote", map[string]any{"weights": "3,1,1,1,1"}) {
		t.Error("five weighted nodes: too many to list")
	}
	if !try("vote", map[string]any{"weights": "2," + strings.TrimSuffix(strings.Repeat("1,", 39), ",")}) {
		t.Error("40 nodes, one of two votes: far more quorums than are listed")
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	spec, _ := Lookup("vote")
	a, _ := NewArgs(spec, map[string]any{"weights": "2," + strings.TrimSuffix(strings.Repeat("1,", 39), ",")})
	f, _ := ImplicitFamily(spec, a)
	if TooManyToList(stopped, spec, a, f) {
		t.Error("a listing the context stopped counts as too many")
	}
}

package analysis_test

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
)

// What the construction of an implicit family gives agrees with the
// figures of its quorums listed: the count, the sizes, and the
// closed-form load against the linear program's.
func TestImplicitFiguresAgainstList(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		kind   string
		params set.Params
		// hasLoad: the construction has a closed form for its load.
		hasLoad bool
	}{
		{"tree", set.Params{"degree": 2, "height": 3}, true},
		{"tree", set.Params{"degree": 3, "height": 2}, true},
		{"wall", set.Params{"widths": "1,2,3,3"}, true},
		{"triangle", set.Params{"rows": 5}, true},
		{"hqc", set.Params{"levels": "3,3"}, false},
	} {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		got := analysis.ImplicitFigures(f)
		g, err := construct.Materialize(f, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		fa, err := analysis.MeasureFamily(ctx, g, analysis.Options{NoResilience: true, NoByzantine: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.Count == nil || got.Count.Int64() != int64(len(g.Quorums)) {
			t.Errorf("%s %v: count %v, the list has %d", c.kind, c.params, got.Count, len(g.Quorums))
		}
		if !got.Sized || got.MinSize != fa.Stats.MinSize || got.MaxSize != fa.Stats.MaxSize {
			t.Errorf("%s %v: sizes %d..%d, the list has %d..%d", c.kind, c.params, got.MinSize, got.MaxSize, fa.Stats.MinSize, fa.Stats.MaxSize)
		}
		switch {
		case (got.Load != nil) != c.hasLoad:
			t.Errorf("%s %v: closed-form load %v, want one: %v", c.kind, c.params, got.Load, c.hasLoad)
		case got.Load == nil:
		case got.Load.Method != measure.MethodClosedForm || fa.Load == nil || fa.Load.Exact == nil || got.Load.Exact.Cmp(fa.Load.Exact) != 0:
			t.Errorf("%s %v: closed-form load %v, the list's %v", c.kind, c.params, got.Load, fa.Load)
		}
	}
}

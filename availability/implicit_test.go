package availability

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The polynomial of an implicit family (the recurrence, from the params
// alone) equals the BDD's polynomial of the same family listed by its
// construction.
func TestImplicitAgainstBDD(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		kind   string
		params set.Params
	}{
		{"tree", set.Params{"degree": 2, "height": 3}},
		{"tree", set.Params{"degree": 3, "height": 2}},
		{"hqc", set.Params{"levels": "3,3"}},
		{"hqc", set.Params{"levels": "2,3,2"}},
		{"wall", set.Params{"widths": "1,2,3,3"}},
		{"wall", set.Params{"widths": "3,2,4"}},
		{"wall", set.Params{"cwlog": true, "n": 20}},
		{"triangle", set.Params{"rows": 5}},
		{"vote", set.Params{"weights": "3,2,2,1,1,1"}},
		{"vote", set.Params{"weights": "5,1,1,1,1,2", "threshold": 8}},
	}
	for _, c := range cases {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.params, err)
		}
		got, err := Compute(ctx, f, Options{})
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.params, err)
		}
		if !got.Exact || got.Method != MethodRecurrence {
			t.Fatalf("%s %v: exact %v by %s, want the recurrence", c.kind, c.params, got.Exact, got.Method)
		}
		g, err := construct.Materialize(f, 1<<16)
		if err != nil {
			t.Fatalf("%s %v: materialise: %v", c.kind, c.params, err)
		}
		want, err := Compute(ctx, g, Options{Method: MethodBDD})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Poly.Equal(want.Poly) {
			t.Errorf("%s %v: implicit %v, BDD of the %d quorums %v", c.kind, c.params, got.Poly, len(g.Quorums), want.Poly)
		}
	}
}

// The methods that need quorums and per-node probabilities refuse an
// implicit family instead of answering for an empty list.
func TestImplicitRefusals(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compute(ctx, f, Options{Method: MethodBDD}); err == nil {
		t.Error("the BDD method took an implicit family")
	}
	r, err := Compute(ctx, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Evaluate(ctx, []float64{0.9}, EvalOptions{Override: map[int]float64{0: 0.5}}); err == nil {
		t.Error("per-node probabilities on an implicit family gave an answer")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Compute(done, f, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := f.Enumerate(10); !errors.Is(err, set.ErrImplicit) {
		t.Errorf("Enumerate: %v, want ErrImplicit", err)
	}
}

package main

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

// The theorems domination cites for implicit families agree with the
// decision procedure on the listed quorums, and no verdict is given where
// no theorem applies.
func TestImplicitDominationTheorems(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		kind    string
		params  set.Params
		theorem bool
	}{
		{"triangle", set.Params{"rows": 4}, true},
		{"wall", set.Params{"widths": "1,2,3,3"}, true},
		{"wall", set.Params{"cwlog": true, "n": 16}, true},
		{"wall", set.Params{"widths": "2,2,3"}, false},
		{"vote", set.Params{"weights": "3,2,1,1,1,1"}, true}, // 9 votes, threshold 5
		{"vote", set.Params{"weights": "3,2,2,1,1,1"}, false},
		{"tree", set.Params{"degree": 2, "height": 2}, false},
		{"hqc", set.Params{"levels": "3,3"}, false},
	}
	for _, c := range cases {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		rep, why, err := implicitDomination("f", f, implicitCheckLimit)
		if !c.theorem {
			if err == nil {
				t.Errorf("%s %v: a verdict (%s) without a theorem", c.kind, c.params, why)
			}
			continue
		}
		if err != nil || !rep.Nondominated || why == "" {
			t.Fatalf("%s %v: %v %v", c.kind, c.params, rep, err)
		}
		g, err := construct.Materialize(f, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		r, err := domination.Decide(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Nondominated {
			t.Errorf("%s %v: the theorem says nondominated, the decision procedure finds witness %v", c.kind, c.params, r.Witness)
		}
	}
}

// The closed-form figures info gives an implicit family agree with those
// of its listed quorums: quorum sizes and load.
func TestImplicitInfoAgainstList(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		kind   string
		params set.Params
	}{
		{"tree", set.Params{"degree": 2, "height": 3}},
		{"tree", set.Params{"degree": 3, "height": 2}},
		{"wall", set.Params{"widths": "1,2,3,3"}},
		{"triangle", set.Params{"rows": 5}},
		{"hqc", set.Params{"levels": "3,3"}},
	} {
		f, err := construct.Implicit(c.kind, c.params)
		if err != nil {
			t.Fatal(err)
		}
		got := newImplicitInfo(f, implicitCheckLimit)
		g, err := construct.Materialize(f, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		res, err := analysis.Measure(ctx, set.System{Family: g}, analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := jsonreport.FromInfo(res, jsonreport.InfoOptions{})
		if got.QuorumSize == nil || want.QuorumSize.Min.V.Int64() != int64(got.QuorumSize.Min) || want.QuorumSize.Max.V.Int64() != int64(got.QuorumSize.Max) {
			t.Errorf("%s %v: sizes %+v, the list has %v..%v", c.kind, c.params, got.QuorumSize, want.QuorumSize.Min.V, want.QuorumSize.Max.V)
		}
		if got.LoadExact != "" && got.LoadExact != want.LoadExact {
			t.Errorf("%s %v: load %s, the list's %s", c.kind, c.params, got.LoadExact, want.LoadExact)
		}
		if n := got.Quorums; n == nil || n.V.Int64() != int64(len(g.Quorums)) {
			t.Errorf("%s %v: %v quorums, the list has %d", c.kind, c.params, got.Quorums, len(g.Quorums))
		}
	}
}

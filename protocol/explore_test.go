package protocol

import (
	"context"
	"testing"
)

func explore(t testing.TB, name string, sys *System, cfg ExploreConfig) *ExploreResult {
	t.Helper()
	r, err := Explore(context.Background(), mustSpec(t, name), sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExploreQuick(t *testing.T) {
	for _, name := range Names() {
		for _, tc := range []struct {
			label string
			sys   *System
			req   int
		}{
			{"triangle", system(t, triangle(1)), 2},
			{"triangle", system(t, triangle(1)), 3},
			{"fano", system(t, fig1b()), 2},
			{"fano", system(t, fig1b()), 3},
		} {
			r := explore(t, name, tc.sys, ExploreConfig{Requests: tc.req})
			term := "?"
			if r.Terminates != nil {
				term = map[bool]string{true: "yes", false: "NO"}[*r.Terminates]
			}
			t.Logf("%-16s %-8s req=%d states=%d trans=%d depth=%d complete=%v safe=%v dlfree=%v term=%s anomfree=%v",
				name, tc.label, tc.req, r.States, r.Transitions, r.Depth, r.Complete, r.Safe, r.DeadlockFree, term, r.AnomalyFree)
			for _, c := range []*Counterexample{r.Violation, r.Deadlock, r.Livelock, r.Anomaly} {
				if c == nil {
					continue
				}
				t.Logf("  %s (%d lines)", c.What, len(c.Steps))
				for _, s := range c.Steps {
					t.Logf("    %s", s)
				}
			}
		}
	}
}

package protocol

import (
	"context"
	"strings"
	"testing"
)

func TestDefault(t *testing.T) {
	if got := Default(system(t, fig(t, 3))).Name; got != "maekawa-fixed" {
		t.Errorf("Fano plane: %s, want maekawa-fixed", got)
	}
	if got := Default(system(t, triangle(2))).Name; got != "hk" {
		t.Errorf("k = 2: %s, want hk", got)
	}
}

// Kinds lists the kinds counted in the order the Spec names them, and
// Len is the number of scheduled steps of the shortest deadlock of
// Maekawa's algorithm on the unowned triangle: 9 (TestExplore).
func TestDescribe(t *testing.T) {
	sys := system(t, fig(t, 3))
	sp, _ := Lookup("maekawa")
	r, err := Simulate(context.Background(), sp, sys, Config{Entries: 200, Seed: 1, Load: Load{Kind: Heavy}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := r.Kinds()
	if len(kinds) != len(r.ByType) || len(kinds) == 0 {
		t.Fatalf("kinds %v of %v", kinds, r.ByType)
	}
	pos := func(k string) int {
		for i, s := range sp.Kinds {
			if s == k {
				return i
			}
		}
		return -1
	}
	for i := 1; i < len(kinds); i++ {
		if pos(kinds[i-1]) >= pos(kinds[i]) {
			t.Errorf("%v is not in the order of %v", kinds, sp.Kinds)
		}
	}

	ex, err := Explore(context.Background(), sp, system(t, triangle(1)), ExploreConfig{Requests: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.Deadlock.Len(); got != 9 {
		t.Errorf("deadlock in %d steps, want 9", got)
	}
	if got := (*Counterexample)(nil).Len(); got != 0 {
		t.Errorf("no counterexample: %d steps", got)
	}
	if c := ex.Deadlock; len(c.Cycle) > 0 {
		text := CycleText(c.Cycle, c.Via)
		if n := strings.Count(text, "waits for member"); n != len(c.Cycle) {
			t.Errorf("%q: %d links, want %d", text, n, len(c.Cycle))
		}
	}
	if got := CycleText([]int{2, 5}, []int{3, 1}); got != "node 2 waits for member 3, held by node 5; node 5 waits for member 1, held by node 2" {
		t.Errorf("CycleText: %q", got)
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

// grid3 is Maekawa's 3×3 grid: row ∪ column, 0-based nodes r*3+c. It is
// dominated, and no witness of Decide's is proved smallest.
func grid3() *set.Family {
	f := set.NewFamily(9)
	for r := range 3 {
		for c := range 3 {
			q := set.New(9)
			for i := range 3 {
				q.Add(r*3 + i)
				q.Add(i*3 + c)
			}
			f.Add(q, r*3+c)
		}
	}
	return f
}

// TestSmallestStopped checks that --smallest stopped before it finishes
// keeps the verdict and the minimal witness it has, marked partial.
func TestSmallestStopped(t *testing.T) {
	f := grid3()
	first, err := domination.Decide(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if first.Nondominated || first.Smallest {
		t.Fatalf("the 3×3 grid is dominated, with no closed-form smallest witness: %+v", first)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := smallestWitness(ctx, f, first)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a stopped search returns the context's error, got %v", err)
	}
	if r != first {
		t.Fatalf("a stopped search keeps the first result")
	}
	if err := domination.CheckWitness(context.Background(), f, r.Witness); err != nil {
		t.Fatalf("the kept witness is not a witness: %v", err)
	}
	rep := newDominationReport(r, false)
	rep.Partial = true
	var js, txt bytes.Buffer
	if err := rep.json(&js); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"partial": true`) || strings.Contains(js.String(), `"smallest"`) {
		t.Errorf("JSON of a stopped --smallest: %s", js.String())
	}
	if err := rep.text(&txt, "grid", f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "a minimal witness") || !strings.Contains(txt.String(), "partial: ") {
		t.Errorf("text of a stopped --smallest:\n%s", txt.String())
	}

	// Not stopped, the same call proves a smallest witness: at most the
	// size of the first.
	full, err := smallestWitness(context.Background(), f, first)
	if err != nil {
		t.Fatal(err)
	}
	if !full.Smallest || full.Witness.Len() > first.Witness.Len() {
		t.Errorf("smallest witness %v (smallest %t), first %v", full.Witness, full.Smallest, first.Witness)
	}
}

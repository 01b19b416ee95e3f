package rw

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSearchTutorial(t *testing.T) {
	// quoracle README, "Search": resilience 1, 1-resilient strategies,
	// 75% reads, latency at most 4 s, network load at most 4. quoracle
	// finds choose(3, a, c, e, b+d+f) with capacity 3500; the search must
	// do at least as well and keep the limits.
	opts := SearchOptions{Options: Options{Workload: Fixed(rat("3/4")), F: 1, LatencyLimit: rat("4"), NetworkLimit: rat("4")}, Resilience: 1, Seed: 1}
	start := time.Now()
	res, err := Search(context.Background(), tutorialNodes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tried, %d feasible in %v; best %s (%s), capacity %s", res.Tried, res.Feasible, time.Since(start), res.Best.Reads, res.Best.Source, res.Best.Metrics.Capacity.RatString())
	m := res.Best.Metrics
	if m.Capacity.Cmp(rat("3500")) < 0 {
		t.Errorf("best capacity %v, below quoracle's 3500", m.Capacity)
	}
	if m.Latency.Cmp(rat("4")) > 0 || m.Network.Cmp(rat("4")) > 0 || min(res.Best.ReadResilience, res.Best.WriteResilience) < 1 {
		t.Errorf("best breaks the limits: %+v", m)
	}
	// quoracle's answer is among the candidates, and is evaluated to
	// 3500 exactly.
	s, _ := New(6, letters(t, "choose(3, a, c, e, b + d + f)"), nil, tutorialNodes())
	_, qm, err := s.Optimal(context.Background(), opts.Options)
	if err != nil {
		t.Fatal(err)
	}
	wantRat(t, "quoracle's system's capacity", qm.Capacity, "3500")
	for i, c := range res.Pareto {
		for j, d := range res.Pareto {
			if i != j && dominates(c, d) {
				t.Errorf("Pareto front member %s dominates %s", c.Reads, d.Reads)
			}
		}
	}
	if !res.Complete {
		t.Error("incomplete without a deadline")
	}
	tried, feasible := 0, 0
	for f, c := range res.TriedBy {
		tried += c
		feasible += res.FeasibleBy[f]
	}
	if tried != res.Tried || feasible != res.Feasible || res.TriedBy["two-level"] == 0 || res.TriedBy["grid"] == 0 {
		t.Errorf("by family %v / %v, totals %d / %d", res.TriedBy, res.FeasibleBy, res.Tried, res.Feasible)
	}
}

func TestSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Search(ctx, tutorialNodes(), SearchOptions{Options: Options{Workload: Fixed(rat("1/2"))}})
	if !errors.Is(err, context.Canceled) || res.Complete {
		t.Errorf("cancelled search: %v, complete %v", err, res.Complete)
	}
}

func TestSearchDeterministic(t *testing.T) {
	opts := SearchOptions{Options: Options{Workload: Fixed(rat("1/2"))}, Seed: 5, MaxPartitionNodes: 4}
	nodes := tutorialNodes()
	a, err := Search(context.Background(), nodes, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Search(context.Background(), nodes, opts)
	if a.Best.Reads.String() != b.Best.Reads.String() || a.Tried != b.Tried || len(a.Pareto) != len(b.Pareto) {
		t.Errorf("two runs differ: %s/%d vs %s/%d", a.Best.Reads, a.Tried, b.Best.Reads, b.Tried)
	}
}

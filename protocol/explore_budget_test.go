package protocol

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A memory budget stops the search with what it proved: the same states
// and verdicts as a search stopped at that many states, marked incomplete.
func TestExploreMemoryBudget(t *testing.T) {
	sys := system(t, fig(t, 3))
	spec := mustSpec(t, "maekawa")
	// Three levels' worth of chunks, and far more than the budget holds.
	const most = 60000
	full := explore(t, "maekawa", sys, ExploreConfig{Requests: 3, MaxStates: most})
	if full.States != most {
		t.Fatalf("the search stopped at %d states, before %d", full.States, most)
	}
	for _, workers := range []int{1, 3} {
		res, err := Explore(context.Background(), spec, sys, ExploreConfig{Requests: 3, MaxMemory: 1 << 20, Workers: workers})
		if !errors.Is(err, set.ErrMemoryBudget) {
			t.Fatalf("err = %v, want the memory budget", err)
		}
		if res == nil || res.Complete || res.Stopped != "max_memory" || res.Terminates != nil {
			t.Fatalf("result %+v, want an incomplete one stopped by memory", res)
		}
		if res.States == 0 || res.States >= full.States {
			t.Fatalf("%d states under the budget, %d in all", res.States, full.States)
		}
		cut := explore(t, "maekawa", sys, ExploreConfig{Requests: 3, MaxStates: res.States})
		if cut.States != res.States || cut.Safe != res.Safe || cut.DeadlockFree != res.DeadlockFree || cut.AnomalyFree != res.AnomalyFree {
			t.Errorf("%d workers: under the budget %+v\nat that many states %+v", workers, res, cut)
		}
	}
	// A budget the search fits in changes nothing.
	roomy, err := Explore(context.Background(), spec, sys, ExploreConfig{Requests: 3, MaxStates: most, MaxMemory: 1 << 30})
	if err != nil || roomy.Stopped != "max_states" || roomy.States != full.States || roomy.Transitions != full.Transitions {
		t.Errorf("with room: %+v, %v; without a budget: %+v", roomy, err, full)
	}
}

// Cancelling stops the search at the next check and returns what it had.
func TestExploreCancel(t *testing.T) {
	sys := system(t, fig(t, 3))
	spec := mustSpec(t, "maekawa")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Explore(ctx, spec, sys, ExploreConfig{Requests: 3})
	if !errors.Is(err, context.Canceled) || res == nil || res.Complete || res.Stopped != "cancelled" {
		t.Fatalf("pre-cancelled: %+v, %v", res, err)
	}
	// Cancelled after the second level: the search stops there.
	levels := map[int]int{}
	depth := 0
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	res, err = Explore(ctx, spec, sys, ExploreConfig{Requests: 3, Progress: func(stage string, states, total int64) {
		depth++
		if stage != "explore" || total != -1 {
			t.Errorf("progress %q %d/%d, want stage explore of an unknown total", stage, states, total)
		}
		levels[depth] = int(states)
		if depth == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || res == nil || res.Stopped != "cancelled" {
		t.Fatalf("cancelled at depth 2: %+v, %v", res, err)
	}
	if res.Depth != 2 || res.States != levels[2] {
		t.Errorf("stopped at depth %d with %d states, want depth 2 with %d", res.Depth, res.States, levels[2])
	}
}

package jsonreport_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/protocol"
	"github.com/coterie-dev/coterie/set"
)

// triangle is {{1,2},{2,3},{1,3}} with no owners: Maekawa's printed
// algorithm deadlocks on it with three requests (nodes pick any quorum).
func triangle(t *testing.T) *protocol.System {
	t.Helper()
	f := set.NewFamily(3)
	for _, q := range [][]int{{0, 1}, {1, 2}, {0, 2}} {
		f.Add(set.Of(q...), set.NoOwner)
	}
	ps, err := protocol.NewSystem(set.System{Family: f})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// keys returns the top-level keys of a JSON object in the order written.
func keys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// A simulation's report lists its fields in the order of docs/formats.md's
// table, and leaves out a violation and a deadlock that did not happen.
func TestSimulationFields(t *testing.T) {
	spec, _ := protocol.Lookup("maekawa-fixed")
	r, err := protocol.Simulate(context.Background(), spec, triangle(t), protocol.Config{Load: mustLoad(t, "light"), Entries: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(jsonreport.NewSimulation("t.txt", r))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"file", "protocol", "load", "entries", "seed", "n", "k", "delay", "cs",
		"messages_per_entry", "by_type", "messages", "self_messages", "safety_violations", "deadlock", "anomalies",
		"max_wait", "mean_wait", "p50_wait", "p90_wait", "p99_wait", "throughput", "time", "paper",
		"mean_quorum", "mean_remote", "mean_units"}
	if got := keys(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("keys\n got %v\nwant %v", got, want)
	}
	var back jsonreport.Simulation
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Entries != r.Entries || back.MessagesPerEntry != r.MessagesPerEntry || back.Paper.Formula != r.Paper.Formula || back.N != 3 {
		t.Errorf("read back %+v from %+v", back, r)
	}
}

// The exploration's counterexample keeps every step of the library's, with
// the nodes as the library numbers them for people (1-based).
func TestExplorationCounterexample(t *testing.T) {
	spec, _ := protocol.Lookup("maekawa")
	r, err := protocol.Explore(context.Background(), spec, triangle(t), protocol.ExploreConfig{Requests: 3, MaxStates: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.DeadlockFree || r.Deadlock == nil {
		t.Fatalf("Maekawa's algorithm on the triangle with 3 requests should deadlock: %+v", r)
	}
	rep := jsonreport.NewExploration("t.txt", r)
	if rep.Violation != nil || rep.Deadlock == nil || rep.DeadlockFree {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Deadlock.Steps) != len(r.Deadlock.Steps) || rep.Deadlock.What != r.Deadlock.What {
		t.Fatalf("%d steps, want %d", len(rep.Deadlock.Steps), len(r.Deadlock.Steps))
	}
	for i, e := range r.Deadlock.Steps {
		g := rep.Deadlock.Steps[i]
		if g.Step != e.Step || g.Event != e.Event || g.From != e.From || g.To != e.To || g.Node != e.Node || g.Kind != e.Kind {
			t.Errorf("step %d: %+v, want %+v", i, g, e)
		}
		for _, v := range []int{g.From, g.To, g.Node} {
			if v < 0 || v > 3 {
				t.Errorf("step %d names node %d, not one of 1..3", i, v)
			}
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"file", "protocol", "n", "k", "requests", "rounds", "states", "transitions", "depth",
		"complete", "safe", "deadlock_free", "terminates", "anomaly_free", "deadlock"}
	if got := keys(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("keys\n got %v\nwant %v", got, want)
	}
}

func mustLoad(t *testing.T, s string) protocol.Load {
	t.Helper()
	l, err := protocol.ParseLoad(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

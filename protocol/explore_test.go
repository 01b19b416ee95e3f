package protocol

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// steps returns the number of scheduled steps of a counterexample.
func steps(c *Counterexample) int {
	n := 0
	for _, s := range c.Steps {
		n = max(n, s.Step)
	}
	return n
}

// The explorer's verdicts on small systems, with the states it explored
// (logged; TestExploreCountsAgree checks the counts against a plain search).
// Each verdict comes from a complete search: it is a proof for that
// instance, not a sample.
func TestExploreVerdicts(t *testing.T) {
	triOwned := owned(3, []int{1, 2, 3}, []int{1, 2}, []int{2, 3}, []int{1, 3})
	tri2 := owned(3, []int{1, 2, 3}, []int{1, 2}, []int{2, 3}, []int{1, 3})
	tri2.K = 2
	type verdict struct{ safe, deadlockFree, terminates, anomalyFree bool }
	ok := verdict{true, true, true, true}
	for _, tt := range []struct {
		name, spec string
		sys        *System
		cfg        ExploreConfig
		want       verdict
		steps      int // length of the shortest counterexample, if any
		slow       bool
		check      func(*testing.T, *ExploreResult)
	}{
		// Kakugawa et al.'s Theorems 1–3 on small instances.
		{"triangle, 3 requests", "ordered", system(t, triangle(1)), ExploreConfig{Requests: 3}, ok, 0, false, nil},
		{"Fig. 1(b), 3 requests", "ordered", system(t, fig(t, 3)), ExploreConfig{Requests: 3}, ok, 0, false, nil},
		{"Fig. 1(a), 3 requests, 2 rounds", "ordered", system(t, fig(t, 2)), ExploreConfig{Requests: 3, Rounds: 2}, ok, 0, false, nil},
		{"Fig. 1(b) cut, 2 requests", "ordered", system(t, cut()), ExploreConfig{Requests: 2}, verdict{false, true, true, true}, 8, false, nil},
		// Maekawa: safe and live on small instances (three requests on
		// Fig. 1(b) too: 196,753 states, see BenchmarkExploreFano)...
		{"Fig. 1(a), 3 requests, 2 rounds", "maekawa", system(t, fig(t, 2)), ExploreConfig{Requests: 3, Rounds: 2}, ok, 0, false, nil},
		{"triangle owned, 5 requests, 2 rounds", "maekawa", system(t, triOwned), ExploreConfig{Requests: 5, Rounds: 2}, ok, 0, false, nil},
		// ... but not for four: nodes 2, 3, 4, 5 can wait for each other
		// for ever (18 steps), which the fixed variant prevents.
		{"Fig. 1(b), requests from 2, 3, 4, 5", "maekawa", system(t, fig(t, 3)), ExploreConfig{Requests: 4, Requesters: []int{1, 2, 3, 4}},
			verdict{true, false, true, true}, 18, false, fanoDeadlock},
		{"Fig. 1(b), requests from 2, 3, 4, 5", "maekawa-fixed", system(t, fig(t, 3)), ExploreConfig{Requests: 4, Requesters: []int{1, 2, 3, 4}}, ok, 0, true, nil},
		// Two requesters sharing two members deadlock with a third (all
		// three use {2,3} of the unowned triangle).
		{"triangle, 3 requests", "maekawa", system(t, triangle(1)), ExploreConfig{Requests: 3}, verdict{true, false, true, true}, 9, false, nil},
		{"triangle, 3 requests", "maekawa-fixed", system(t, triangle(1)), ExploreConfig{Requests: 3}, ok, 0, false, nil},
		{"Fig. 1(b) cut, 2 requests", "maekawa", system(t, cut()), ExploreConfig{Requests: 2}, verdict{false, true, true, true}, 8, false, nil},
		// Manabe–Tajima: safe and live, but a cancel crossing a release
		// reaches a member with no request to update (9 steps).
		{"triangle, 2 requests", "hk", system(t, triangle(1)), ExploreConfig{Requests: 2}, verdict{true, true, true, false}, 9, false, nil},
		{"Fig. 1(b), 2 requests", "hk", system(t, fig(t, 3)), ExploreConfig{Requests: 2}, verdict{true, true, true, false}, 11, false, nil},
		{"triangle as a 2-arbiter, 3 requests", "hk", system(t, tri2), ExploreConfig{Requests: 3}, verdict{false, true, true, true}, 9, false, nil},
		{"triangle, 3 requests", "ricart-agrawala", system(t, triangle(1)), ExploreConfig{Requests: 3}, ok, 0, false, nil},
	} {
		t.Run(tt.spec+"/"+tt.name, func(t *testing.T) {
			if tt.slow && testing.Short() {
				t.Skip("a few seconds")
			}
			r := explore(t, tt.spec, tt.sys, tt.cfg)
			if !r.Complete || r.Terminates == nil {
				t.Fatalf("search incomplete after %d states", r.States)
			}
			got := verdict{r.Safe, r.DeadlockFree, *r.Terminates, r.AnomalyFree}
			if got != tt.want {
				t.Errorf("verdict %+v, want %+v", got, tt.want)
			}
			var cex *Counterexample
			for _, c := range []*Counterexample{r.Violation, r.Deadlock, r.Livelock, r.Anomaly} {
				if c != nil && cex == nil {
					cex = c
				}
			}
			if cex != nil && steps(cex) != tt.steps {
				t.Errorf("shortest counterexample: %d steps, want %d:\n%s", steps(cex), tt.steps, traceText(cex.Steps))
			}
			if tt.check != nil {
				tt.check(t, r)
			}
			t.Logf("%d states, %d transitions, depth %d", r.States, r.Transitions, r.Depth)
		})
	}
}

// fanoDeadlock checks the shortest deadlock of Maekawa's algorithm on Fig.
// 1(b): a REQUEST reaches a member that has already sent an INQUIRE for an
// earlier one, so nothing is sent (no FAILED); the member then relinquishes
// to the overtaking REQUEST, and its first requester, never told it lost,
// defers the INQUIRE it gets from its own member for ever.
func fanoDeadlock(t *testing.T, r *ExploreResult) {
	text := traceText(r.Deadlock.Steps)
	for _, want := range []string{"INQUIRE", "RELINQUISH", "FAILED", "node 2 requests", "node 5 requests"} {
		if !strings.Contains(text, want) {
			t.Errorf("the trace lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "enters the critical section") {
		t.Errorf("nobody should enter:\n%s", text)
	}
}

// A plain depth-first search over the same steps, keeping whole encodings,
// reaches exactly the states the breadth-first, hashed, parallel explorer
// counts, and finds the same verdicts.
func TestExploreCountsAgree(t *testing.T) {
	for _, spec := range Names() {
		for _, tc := range []struct {
			name string
			sys  *System
			cfg  ExploreConfig
		}{
			{"triangle", system(t, triangle(1)), ExploreConfig{Requests: 2}},
			{"Fig. 1(a), 2 rounds", system(t, fig(t, 2)), ExploreConfig{Requests: 3, Rounds: 2}},
			{"cut, nodes 3 and 6", system(t, cut()), ExploreConfig{Requests: 2, Requesters: []int{2, 5}}},
		} {
			if tc.sys.N > 3 && spec == "ricart-agrawala" {
				continue // it asks every node: 650,000 states
			}
			r := explore(t, spec, tc.sys, tc.cfg)
			e, err := newExplorer(mustSpec(t, spec), tc.sys, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			safe, deadlockFree := true, true
			x, _ := e.newNet()
			var dfs func(enc []byte)
			dfs = func(enc []byte) {
				seen[string(enc)] = true
				if err := x.decode(enc); err != nil {
					t.Fatal(err)
				}
				ts := e.transitions(x, nil)
				if len(ts) == 0 && slices.Contains(x.phase, waiting) {
					deadlockFree = false
				}
				for _, tr := range ts {
					if err := x.decode(enc); err != nil {
						t.Fatal(err)
					}
					e.apply(x, tr)
					if x.bad {
						safe = false
					}
					next, _ := x.encode(nil, nil)
					if !seen[string(next)] {
						dfs(next)
					}
				}
			}
			root, _ := x.encode(nil, nil)
			dfs(root)
			if len(seen) != r.States || safe != r.Safe || deadlockFree != r.DeadlockFree {
				t.Errorf("%s on %s: plain search %d states (safe %v, deadlock-free %v), explorer %d (%v, %v)",
					spec, tc.name, len(seen), safe, deadlockFree, r.States, r.Safe, r.DeadlockFree)
			}
		}
	}
}

// The result does not depend on the number of workers; bounds make the
// search incomplete, and say so.
func TestExploreBounds(t *testing.T) {
	sys := system(t, fig(t, 3))
	cfg := ExploreConfig{Requests: 2}
	one := explore(t, "maekawa", sys, ExploreConfig{Requests: 2, Workers: 1})
	four := explore(t, "maekawa", sys, ExploreConfig{Requests: 2, Workers: 4})
	ja, _ := json.Marshal(one)
	jb, _ := json.Marshal(four)
	if string(ja) != string(jb) {
		t.Errorf("1 worker: %+v\n4 workers: %+v", one, four)
	}
	// A counterexample is the same whatever the workers.
	cs := system(t, cut())
	a := explore(t, "ordered", cs, ExploreConfig{Requests: 2, Workers: 1})
	b := explore(t, "ordered", cs, ExploreConfig{Requests: 2, Workers: 3})
	if traceText(a.Violation.Steps) != traceText(b.Violation.Steps) {
		t.Errorf("counterexamples differ:\n%s\n%s", traceText(a.Violation.Steps), traceText(b.Violation.Steps))
	}
	cfg.MaxDepth = 6
	d := explore(t, "maekawa", sys, cfg)
	if d.Complete || d.Terminates != nil || d.States >= one.States || d.Depth != 6 {
		t.Errorf("depth 6: complete %v, %d states of %d, depth %d", d.Complete, d.States, one.States, d.Depth)
	}
	cfg = ExploreConfig{Requests: 2, MaxStates: 100}
	m := explore(t, "maekawa", sys, cfg)
	if m.Complete || m.States != 100 {
		t.Errorf("100 states: complete %v, %d states", m.Complete, m.States)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Explore(ctx, mustSpec(t, "maekawa"), sys, ExploreConfig{Requests: 3}); err == nil {
		t.Error("a cancelled context did not stop the search")
	}
	if _, err := Explore(context.Background(), mustSpec(t, "maekawa"), system(t, plane(t, 8)), ExploreConfig{}); err == nil {
		t.Error("73 nodes accepted")
	}
}

// A protocol's state survives AppendState and LoadState whole: along random
// walks, a copy restored from the encoding takes every next step exactly as
// the original does (state the encoding missed would make them part).
func TestStateRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	tri2 := triangle(2)
	for _, spec := range Names() {
		for _, f := range []*set.Family{fig(t, 3), cut(), triangle(1), tri2} {
			sys := system(t, f)
			if _, err := mustSpec(t, spec).New(sys); err != nil {
				continue // a protocol that does not run on f
			}
			e, err := newExplorer(mustSpec(t, spec), sys, ExploreConfig{Requests: 6, Rounds: 3})
			if err != nil {
				t.Fatal(err)
			}
			for walk := range 30 {
				a, _ := e.newNet()
				b, _ := e.newNet()
				for step := 0; ; step++ {
					ts := e.transitions(a, nil)
					if len(ts) == 0 {
						break
					}
					enc, _ := a.encode(nil, nil)
					if err := b.decode(enc); err != nil {
						t.Fatalf("%s, walk %d, step %d: %v", spec, walk, step, err)
					}
					again, _ := b.encode(nil, nil)
					if string(enc) != string(again) {
						t.Fatalf("%s, walk %d, step %d: encode(decode(s)) ≠ s", spec, walk, step)
					}
					tr := ts[r.IntN(len(ts))]
					e.apply(a, tr)
					e.apply(b, tr)
					ea, _ := a.encode(nil, nil)
					eb, _ := b.encode(nil, nil)
					if string(ea) != string(eb) || a.bad != b.bad || a.anomaly != b.anomaly {
						t.Fatalf("%s on %v, walk %d, step %d: the restored copy took step %x differently", spec, f, walk, step, tr)
					}
				}
			}
		}
	}
}

package protocol

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The merge of the parts of N shards is the unsplit exploration, field for
// field and counterexample for counterexample, for N = 1, 2, 3, 7: safe
// instances, a safety violation (the cut of Fig. 1(b)),
// deadlocks (Maekawa's), an undefined step (hk), and searches stopped by a
// depth or state bound.
func TestExploreMergeEqualsWhole(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		sys        *System
		cfg        ExploreConfig
	}{
		{"triangle, 3 requests", "ordered", system(t, triangle(1)), ExploreConfig{Requests: 3}},
		{"cut, 2 requests (violation)", "ordered", system(t, cut()), ExploreConfig{Requests: 2}},
		{"cut, 2 requests (violation)", "maekawa", system(t, cut()), ExploreConfig{Requests: 2}},
		{"triangle, 3 requests (deadlock)", "maekawa", system(t, triangle(1)), ExploreConfig{Requests: 3}},
		{"Fig. 1(a), 3 requests, 2 rounds", "maekawa", system(t, fig(t, 2)), ExploreConfig{Requests: 3, Rounds: 2}},
		{"triangle, 2 requests (anomaly)", "hk", system(t, triangle(1)), ExploreConfig{Requests: 2}},
		{"Fig. 1(b), depth 7", "maekawa", system(t, fig(t, 3)), ExploreConfig{Requests: 2, MaxDepth: 7}},
		{"Fig. 1(b), 500 states", "maekawa", system(t, fig(t, 3)), ExploreConfig{Requests: 2, MaxStates: 500}},
	} {
		t.Run(tc.spec+"/"+tc.name, func(t *testing.T) {
			whole := explore(t, tc.spec, tc.sys, tc.cfg)
			want, _ := json.Marshal(whole)
			cut := tc.cfg
			cut.MaxStates = 0 // a shard must finish; the merge applies the bound
			for _, n := range []int{1, 2, 3, 7} {
				got, parts := splitMerge(t, tc.spec, tc.sys, cut, tc.cfg, n)
				if g, _ := json.Marshal(got); string(g) != string(want) {
					t.Fatalf("%d shards:\nmerged %s\nwhole  %s", n, g, want)
				}
				sum := 0
				for _, p := range parts {
					sum += p.Expanded
				}
				t.Logf("%d shards, %d pieces: expanded %d states in all, the whole %d", n, parts[0].Pieces, sum, whole.States)
				if n > 1 && parts[0].Pieces >= n && whole.Complete {
					// The shards share the work: none expands every state.
					for i, p := range parts {
						if p.Expanded >= whole.States {
							t.Errorf("shard %d of %d expanded %d states of %d", i+1, n, p.Expanded, whole.States)
						}
					}
				}
			}
		})
	}
}

// splitMerge runs the n shards of a split exploration with shardCfg, and
// merges their parts with mergeCfg.
func splitMerge(t *testing.T, spec string, sys *System, shardCfg, mergeCfg ExploreConfig, n int) (*ExploreResult, []*ExplorePart) {
	t.Helper()
	var parts []*ExplorePart
	for i := range n {
		p, err := ExploreShardRun(context.Background(), mustSpec(t, spec), sys, shardCfg,
			ExploreShard{Owns: func(p int) bool { return p%n == i }})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	r, err := MergeExplore(context.Background(), mustSpec(t, spec), sys, mergeCfg, parts)
	if err != nil {
		t.Fatal(err)
	}
	return r, parts
}

// The parts of an incomplete set of shards, or of another instance, do not
// merge; a shard stopped by its state bound writes no part.
func TestExploreMergeRefuses(t *testing.T) {
	sys := system(t, fig(t, 3))
	cfg := ExploreConfig{Requests: 2}
	sp := mustSpec(t, "maekawa")
	part := func(sys *System, cfg ExploreConfig, i, n int) *ExplorePart {
		p, err := ExploreShardRun(context.Background(), sp, sys, cfg, ExploreShard{Owns: func(p int) bool { return p%n == i }})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := part(sys, cfg, 0, 3), part(sys, cfg, 1, 3), part(sys, cfg, 2, 3)
	if a.Pieces != 21 {
		t.Fatalf("%d pieces, want the 21 pairs of requesters", a.Pieces)
	}
	if _, err := MergeExplore(context.Background(), sp, sys, cfg, []*ExplorePart{a, b}); err == nil || !strings.Contains(err.Error(), "expanded by no shard") {
		t.Errorf("two shards of three: %v", err)
	}
	other := part(system(t, triangle(1)), cfg, 2, 3)
	if _, err := MergeExplore(context.Background(), sp, sys, cfg, []*ExplorePart{a, b, other}); err == nil {
		t.Error("a shard of another instance merged")
	}
	more := part(sys, ExploreConfig{Requests: 3}, 2, 3)
	if _, err := MergeExplore(context.Background(), sp, sys, cfg, []*ExplorePart{a, b, more}); err == nil {
		t.Error("a shard of another number of requests merged")
	}
	if _, err := MergeExplore(context.Background(), sp, sys, cfg, []*ExplorePart{a, b, c}); err != nil {
		t.Errorf("the three shards: %v", err)
	}
	bad := *c
	bad.Graph = bad.Graph[:len(bad.Graph)-3]
	if _, err := MergeExplore(context.Background(), sp, sys, cfg, []*ExplorePart{a, b, &bad}); err == nil {
		t.Error("a truncated graph merged")
	}
	if _, err := ExploreShardRun(context.Background(), sp, sys, ExploreConfig{Requests: 2, MaxStates: 50},
		ExploreShard{Owns: func(p int) bool { return true }}); err == nil || !strings.Contains(err.Error(), "finish") {
		t.Errorf("a shard over its state bound: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ExploreShardRun(ctx, sp, sys, cfg, ExploreShard{Owns: func(int) bool { return true }}); err == nil {
		t.Error("a cancelled shard gave a part")
	}
}

// The pieces divide the work: on Fig. 1(b) with two requests (21 pairs of
// requesters), seven shards together expand few more states than the
// whole search has, and none more than a fifth of them.
func TestExploreShardsShareWork(t *testing.T) {
	sys := system(t, fig(t, 3))
	cfg := ExploreConfig{Requests: 2}
	whole := explore(t, "maekawa", sys, cfg)
	_, parts := splitMerge(t, "maekawa", sys, cfg, cfg, 7)
	sum, most := 0, 0
	for _, p := range parts {
		sum += p.Expanded
		most = max(most, p.Expanded)
	}
	if parts[0].Pieces != 21 || 4*sum > 5*whole.States || 5*most > whole.States {
		t.Errorf("%d pieces; 7 shards expanded %d states in all, at most %d in one; the whole search has %d", parts[0].Pieces, sum, most, whole.States)
	}
}

// pingPong is a protocol that never lets anyone in: a requester sends PING
// to the next node, which answers PONG, which is answered PING, for ever.
// Its state graph has cycles: a livelock.
type pingPong struct{ n int }

func (p *pingPong) Request(net Net, node int, r Request) {
	net.Send(Message{Kind: 0, From: int32(node), To: int32((node + 1) % p.n)})
}

func (p *pingPong) Deliver(net Net, m Message) {
	net.Send(Message{Kind: 1 - m.Kind, From: m.To, To: m.From})
}

func (p *pingPong) Exit(Net, int)                          {}
func (p *pingPong) WaitsFor(int, func(member, holder int)) {}
func (p *pingPong) AppendState(b []byte) []byte            { return b }
func (p *pingPong) LoadState(b []byte) error               { return nil }

// A livelock is merged as the whole search finds it: the same cycle, from
// the same state, by the same steps.
func TestExploreMergeLivelock(t *testing.T) {
	spec := Spec{Name: "ping-pong", Kinds: []string{"PING", "PONG"},
		New: func(sys *System) (Protocol, error) { return &pingPong{n: sys.N}, nil }}
	sys := system(t, triangle(1))
	cfg := ExploreConfig{Requests: 2}
	whole, err := Explore(context.Background(), spec, sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Terminates == nil || *whole.Terminates || whole.Livelock == nil {
		t.Fatalf("no livelock: %+v", whole)
	}
	want, _ := json.Marshal(whole)
	for _, n := range []int{1, 2, 3, 7} {
		var parts []*ExplorePart
		for i := range n {
			p, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: func(p int) bool { return p%n == i }})
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		got, err := MergeExplore(context.Background(), spec, sys, cfg, parts)
		if err != nil {
			t.Fatal(err)
		}
		if g, _ := json.Marshal(got); string(g) != string(want) {
			t.Errorf("%d shards:\nmerged %s\nwhole  %s", n, g, want)
		}
	}
}

// One shard of four, and the merge of the four parts, of the exploration
// of BenchmarkExploreFano (Maekawa's Fig. 1(b), three requests): the
// merge's cost against the whole search's.
//
//	go test ./protocol -run XXX -bench 'ExploreFano|ExploreSplitFano'
func BenchmarkExploreSplitFano(b *testing.B) {
	sys := system(b, fig(b, 3))
	spec := mustSpec(b, "maekawa")
	cfg := ExploreConfig{Requests: 3}
	shard := func(i int) *ExplorePart {
		p, err := ExploreShardRun(context.Background(), spec, sys, cfg, ExploreShard{Owns: func(p int) bool { return p%4 == i }})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	b.Run("shard", func(b *testing.B) {
		for b.Loop() {
			shard(0)
		}
	})
	parts := []*ExplorePart{shard(0), shard(1), shard(2), shard(3)}
	b.Run("merge", func(b *testing.B) {
		for b.Loop() {
			if _, err := MergeExplore(context.Background(), spec, sys, cfg, parts); err != nil {
				b.Fatal(err)
			}
		}
	})
}

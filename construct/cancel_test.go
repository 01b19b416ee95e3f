package construct_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

// bigBuilds are constructions that list tens of thousands of quorums or
// more, so that their build looks at its context several times: one for
// every way the constructions list theirs.
var bigBuilds = []struct {
	kind string
	args map[string]any
}{
	{"wall", map[string]any{"widths": "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"}}, // 2^17 quorums
	{"tree", map[string]any{"degree": 2, "height": 4}},                      // 2^16 − 1
	{"vote", map[string]any{"weights": "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2"}},
	{"cube", map[string]any{"a": 8, "k": 3}}, // 8^4 tuples of 4·8^3 insertions
	{"fpp", map[string]any{"order": 127}},    // 16257 lines
	{"grid", map[string]any{"n": 20000}},     // 20000 quorums
	{"maekawa", map[string]any{"n": 20000}},  // Method 1 from PG(2,139)
	{"billiard", map[string]any{"q": 161}},   // 12960 paths
}

func bigArgs(t *testing.T, kind string, vals map[string]any) (construct.Spec, construct.Args) {
	t.Helper()
	spec, ok := construct.Lookup(kind)
	if !ok {
		t.Fatalf("no construction %s", kind)
	}
	a, err := construct.NewArgs(spec, vals)
	if err != nil {
		t.Fatal(err)
	}
	return spec, a
}

// Every registered construction has Build and BuildContext, and
// BuildContext refuses a cancelled context with the context's error.
func TestBuildContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, spec := range construct.Specs() {
		if spec.Build == nil || spec.BuildContext == nil {
			t.Errorf("%s: Build %v, BuildContext %v", spec.Name, spec.Build != nil, spec.BuildContext != nil)
			continue
		}
	}
	for _, tt := range bigBuilds {
		spec, a := bigArgs(t, tt.kind, tt.args)
		if _, err := spec.BuildContext(ctx, a); !errors.Is(err, context.Canceled) {
			t.Errorf("%s on a cancelled context: %v", tt.kind, err)
		}
	}
}

// A build cancelled in the middle stops at the check that sees the
// cancellation and returns context.Canceled: with a context that is
// cancelled at its third check, BuildContext looks at it three times and
// no more, while the whole build looks more often. Left alone, the same
// build gives what Build gives.
func TestBuildContextStopsInTheMiddle(t *testing.T) {
	for _, tt := range bigBuilds {
		t.Run(tt.kind, func(t *testing.T) {
			spec, a := bigArgs(t, tt.kind, tt.args)
			all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
			sys, err := spec.BuildContext(all, a)
			if err != nil {
				t.Fatal(err)
			}
			if all.Calls < 4 {
				t.Fatalf("the whole build looks at its context %d times; the test needs a larger one", all.Calls)
			}
			want, err := spec.Build(a)
			if err != nil {
				t.Fatal(err)
			}
			if !sameFamily(sys.Family, want.Family) {
				t.Error("BuildContext and Build differ")
			}
			stop := &testsys.StopAfter{Context: context.Background(), Left: 2}
			if _, err := spec.BuildContext(stop, a); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled at the third check: %v", err)
			}
			if stop.Calls != 3 {
				t.Errorf("cancelled at the third check, it looked %d times (of %d for the whole build)", stop.Calls, all.Calls)
			}
		})
	}
}

func sameFamily(a, b *set.Family) bool {
	if a.N != b.N || len(a.Quorums) != len(b.Quorums) || len(a.Owners) != len(b.Owners) {
		return false
	}
	for i := range a.Quorums {
		if !set.Equal(&a.Quorums[i], &b.Quorums[i]) {
			return false
		}
	}
	for i := range a.Owners {
		if a.Owners[i] != b.Owners[i] {
			return false
		}
	}
	return true
}

// Materialize and Join stop on their context the same way: cancelled at
// the third check, they return context.Canceled with at most a few more
// looks (their error handling), far fewer than the whole work takes.
func TestMaterializeAndJoinStop(t *testing.T) {
	wall := &set.Family{N: 34, K: 1, Kind: "wall", Params: set.Params{"widths": "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"}, Implicit: true}
	all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
	if _, err := construct.MaterializeContext(all, wall, 1<<20); err != nil || all.Calls < 16 {
		t.Fatalf("Materialize: %v after %d checks", err, all.Calls)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 2}
	if _, err := construct.MaterializeContext(stop, wall, 1<<20); !errors.Is(err, context.Canceled) || stop.Calls > 3+4 {
		t.Errorf("Materialize cancelled at the third check: %v after %d checks (of %d)", err, stop.Calls, all.Calls)
	}
	outer, err := construct.Majority(3)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := construct.Wall([]int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	all = &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
	if _, err := construct.JoinContext(all, outer, inner, 0, 1<<20); err != nil || all.Calls < 16 {
		t.Fatalf("Join: %v after %d checks", err, all.Calls)
	}
	stop = &testsys.StopAfter{Context: context.Background(), Left: 2}
	if _, err := construct.JoinContext(stop, outer, inner, 0, 1<<20); !errors.Is(err, context.Canceled) || stop.Calls > 3+4 {
		t.Errorf("Join cancelled at the third check: %v after %d checks (of %d)", err, stop.Calls, all.Calls)
	}
}

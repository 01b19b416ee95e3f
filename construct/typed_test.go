package construct_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// typedCases are small instances of every construction with a typed form.
var typedCases = []struct {
	kind   string
	params set.Params
}{
	{"tree", set.Params{"degree": 2, "height": 2}},
	{"tree", set.Params{"degree": 3, "height": 1}},
	{"hqc", set.Params{"levels": "3,3"}},
	{"hqc", set.Params{"levels": "2,3"}},
	{"wall", set.Params{"widths": "1,2,3"}},
	{"wall", set.Params{"widths": "2,2,3"}},
	{"wall", set.Params{"cwlog": true, "n": 12}},
	{"triangle", set.Params{"rows": 4}},
	{"vote", set.Params{"weights": "3,1,1,1,1"}},
	{"vote", set.Params{"weights": "3,2,2,1,1,1", "threshold": 6}},
	{"wheel", set.Params{"n": 6}},
}

// TestTypedAgainstList checks each typed construction against its listed
// quorums: HasQuorum on every subset of the nodes agrees with "contains a
// listed quorum", and the count, the sizes, the intersection proof's
// claim and the load certificate agree with the list.
func TestTypedAgainstList(t *testing.T) {
	for _, c := range typedCases {
		spec, _ := construct.Lookup(c.kind)
		f := &set.Family{Kind: c.kind, Params: c.params}
		sys, ok := construct.Claimed(setN(t, spec, c.params, f))
		if !ok {
			t.Fatalf("%s %v: no typed construction", c.kind, c.params)
		}
		list, err := sys.Family(context.Background(), 1<<16)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kind, c.params, err)
		}
		n := sys.N()
		if n != list.N || n > 16 {
			t.Fatalf("%s %v: n = %d, list over %d", c.kind, c.params, n, list.N)
		}
		live := set.New(n)
		for mask := range 1 << n {
			live.Clear()
			for v := range n {
				if mask>>v&1 == 1 {
					live.Add(v)
				}
			}
			want := false
			for _, q := range list.All() {
				if set.Subset(q, live) {
					want = true
					break
				}
			}
			if got := sys.HasQuorum(live); got != want {
				t.Fatalf("%s %v: HasQuorum(%v) = %v, the list says %v", c.kind, c.params, live, got, want)
			}
		}
		if cnt, ok := sys.(quorum.Counter); ok {
			if got, ok := cnt.QuorumCount(); ok && got.Cmp(big.NewInt(int64(len(list.Quorums)))) != 0 {
				t.Errorf("%s %v: QuorumCount %s, the list has %d", c.kind, c.params, got, len(list.Quorums))
			}
		}
		if sz, ok := sys.(quorum.Sizer); ok {
			lo, hi := sz.QuorumSizes()
			st := list.Stats()
			if lo != st.MinSize || hi != st.MaxSize {
				t.Errorf("%s %v: QuorumSizes %d..%d, the list %d..%d", c.kind, c.params, lo, hi, st.MinSize, st.MaxSize)
			}
		}
		if _, ok := sys.(quorum.Prover); !ok && c.kind != "wheel" {
			t.Errorf("%s: no intersection proof", c.kind)
		}
	}
}

// setN fills f.N from the construction's own build.
func setN(t *testing.T, spec construct.Spec, params set.Params, f *set.Family) *set.Family {
	t.Helper()
	vals := map[string]any{}
	for k, v := range params {
		vals[k] = v
	}
	a, err := construct.NewArgs(spec, vals)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := spec.Build(a)
	if err != nil {
		t.Fatal(err)
	}
	f.N = sys.Family.N
	return f
}

// TestTypedImplicit checks that reading an implicit family rebuilds its
// typed construction, with its labels, and that one too large to list is
// refused with a *ListError wrapping set.ErrTooMany.
func TestTypedImplicit(t *testing.T) {
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 5})
	if err != nil {
		t.Fatal(err)
	}
	f.Labels = make([]string, f.N)
	for i := range f.Labels {
		f.Labels[i] = string(rune('a' + i%26))
	}
	sys, err := construct.Typed(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := sys.(*construct.TreeSystem)
	if !ok || tr.Degree != 2 || tr.Height != 5 || len(sys.Labels()) != f.N {
		t.Fatalf("Typed = %#v", sys)
	}
	if d, ok := sys.(quorum.Described); !ok || d.Kind() != "tree" {
		t.Fatalf("not described as a tree: %#v", sys)
	}
	// 2^32 − 1 quorums (T(h) = 2T(h−1) + T(h−1)², T(0) = 1).
	if c, _ := sys.(quorum.Counter).QuorumCount(); c.Cmp(big.NewInt(1<<32-1)) != 0 {
		t.Fatalf("count %s, want 2^32 − 1", c)
	}
	_, err = construct.Explicit(context.Background(), f, 1000)
	var le *construct.ListError
	if !errors.As(err, &le) || !errors.Is(err, set.ErrTooMany) || le.Limit != 1000 {
		t.Fatalf("Explicit past the limit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := construct.Explicit(ctx, f, 1<<30); !errors.Is(err, context.Canceled) {
		t.Fatalf("Explicit with a cancelled context: %v", err)
	}
}

// TestSlabSystem checks the typed grid and cube against their lists.
func TestSlabSystem(t *testing.T) {
	for _, c := range []struct {
		kind   string
		params set.Params
		dims   []int
	}{
		{"grid", set.Params{"rows": 2, "cols": 3}, []int{3, 2}},
		{"grid", set.Params{"rows": 3, "cols": 3}, []int{3, 3}},
		{"cube", set.Params{"a": 2, "k": 2}, []int{2, 2, 2}},
	} {
		spec, _ := construct.Lookup(c.kind)
		f := setN(t, spec, c.params, &set.Family{Kind: c.kind, Params: c.params})
		sys, ok := construct.Claimed(f)
		if !ok {
			t.Fatalf("%s %v: no typed form", c.kind, c.params)
		}
		if d := sys.(quorum.SlabGrid).SlabDims(); !slicesEqual(d, c.dims) {
			t.Fatalf("%s %v: dims %v, want %v", c.kind, c.params, d, c.dims)
		}
		list, err := sys.Family(context.Background(), 1<<10)
		if err != nil {
			t.Fatal(err)
		}
		n := sys.N()
		live := set.New(n)
		for mask := range 1 << n {
			live.Clear()
			for v := range n {
				if mask>>v&1 == 1 {
					live.Add(v)
				}
			}
			want := false
			for _, q := range list.All() {
				want = want || set.Subset(q, live)
			}
			if got := sys.HasQuorum(live); got != want {
				t.Fatalf("%s %v: HasQuorum(%v) = %v, the list says %v", c.kind, c.params, live, got, want)
			}
		}
		if cnt, _ := sys.(quorum.Counter).QuorumCount(); cnt.Int64() != int64(len(list.Quorums)) {
			t.Errorf("%s %v: count %s, list %d", c.kind, c.params, cnt, len(list.Quorums))
		}
	}
	// A degenerate grid claims no slab structure.
	f := setN(t, mustSpec("grid"), set.Params{"n": 7}, &set.Family{Kind: "grid", Params: set.Params{"rows": 3, "cols": 3, "n": 7}})
	if sys, ok := construct.Claimed(f); ok {
		t.Fatalf("degenerate grid typed as %#v", sys)
	}
}

func mustSpec(kind string) construct.Spec { s, _ := construct.Lookup(kind); return s }

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTypedThreshold(t *testing.T) {
	f, err := construct.Majority(7)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := construct.Typed(f)
	if err != nil {
		t.Fatal(err)
	}
	th, ok := sys.(quorum.Thresholder)
	if !ok || th.Threshold() != 4 {
		t.Fatalf("majority of 7 as %T: want a Thresholder of 4", sys)
	}
	if c, ok := sys.(quorum.Counter); !ok {
		t.Fatal("no Counter")
	} else if n, _ := c.QuorumCount(); n.Int64() != 35 {
		t.Fatalf("count %v, want C(7,4) = 35", n)
	}
	// The closed form equals the load the uniform strategy gives when
	// the 35 quorums are listed: each node is in C(6,3) = 20 of them.
	l, ok := sys.(quorum.LoadFormula).ClosedFormLoad()
	if !ok || l.Cmp(big.NewRat(20, 35)) != 0 {
		t.Fatalf("load %v, want 20/35", l)
	}
	g, err := f.Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := construct.Typed(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ls.(quorum.Thresholder); ok {
		t.Fatal("a listed family claims to be a threshold")
	}
}

// The statistics of an implicit family list its quorums under the
// caller's context: an ended context stops them and is what Err says.
func TestImplicitStatsContext(t *testing.T) {
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 3})
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.StatsContext(context.Background())
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	// The binary tree of height 3 (15 nodes) has Q(3) = Q(2)² + 2·Q(2) = 255
	// quorums, with Q(0) = 1 and Q(h) = Q(h−1)² + 2Q(h−1).
	if st.Quorums.Int64() != 255 {
		t.Fatalf("%v quorums, want 255", st.Quorums)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err = f.StatsContext(ctx)
	if !errors.Is(err, context.Canceled) || !errors.Is(st.Err, context.Canceled) {
		t.Fatalf("ended context: err %v, Stats.Err %v", err, st.Err)
	}
}

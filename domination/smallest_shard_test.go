package domination

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// splitSmallest runs the n shards of a split decideSmallest and merges
// their parts.
func splitSmallest(t *testing.T, f *set.Family, geometry bool, use engines, n int) (*Result, []*SmallestPart) {
	t.Helper()
	var parts []*SmallestPart
	for i := range n {
		p, err := smallestShard(context.Background(), f, func(p int) bool { return p%n == i }, geometry, use, nil, nil)
		if err != nil {
			t.Fatalf("shard %d/%d: %v", i+1, n, err)
		}
		parts = append(parts, p)
	}
	r, err := MergeSmallest(context.Background(), f, parts)
	if err != nil {
		t.Fatalf("merge of %d: %v", n, err)
	}
	return r, parts
}

func sameResult(a, b *Result) bool {
	if (a.Witness == nil) != (b.Witness == nil) || a.Witness != nil && !set.Equal(a.Witness, b.Witness) {
		return false
	}
	a2, b2 := *a, *b
	a2.Witness, b2.Witness = nil, nil
	return a2 == b2
}

// The merge of the parts of N shards of --smallest is the unsplit run's
// result (the same witness, proof and bound), for N = 1, 2, 3, 7: on the
// solver path, split by size (grids, planes and near-planes asked of the
// solver alone, random coteries, a 2-arbiter), and on the paths that are
// not split (a plane by Bruen's bound, a threshold system, the exhaustive
// table, a nondominated system).
func TestSmallestMergeEqualsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	type tc struct {
		name     string
		f        *set.Family
		geometry bool
		use      engines
		split    bool
	}
	cases := []tc{
		{"grid 5x6, solver", grid(5, 6), true, allEngines, true},
		{"grid 4x4, solver only", grid(4, 4), false, solverOnly, true},
		{"PG(2,3), solver only", pg(t, 3), false, solverOnly, true},
		{"PG(2,4), solver only", pg(t, 4), false, solverOnly, true},
		{"PG(2,3) scrambled, solver only", scramble(r, pg(t, 3)), false, solverOnly, true},
		{"2-arbiter: a join of two 4-of-5", join(uniform(t, 5, 4, 2), 0, uniform(t, 5, 4, 2)), true, allEngines, true},
		{"PG(2,4), Bruen", pg(t, 4), true, allEngines, false},
		{"grid 3x3, exhaustive", grid(3, 3), true, allEngines, false},
		{"threshold 4 of 6", set.NewThreshold(6, 4), true, allEngines, false},
		{"majority of 5 as a list, nondominated", uniform(t, 5, 3, 1), true, allEngines, false},
	}
	for i := range 4 {
		g := scramble(r, grid(3+i%2, 4))
		cases = append(cases, tc{"grid scrambled, solver only", g, false, solverOnly, true})
	}
	improved := 0
	for _, c := range cases {
		whole, err := decideSmallest(context.Background(), c.f, c.geometry, c.use)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 7} {
			got, parts := splitSmallest(t, c.f, c.geometry, c.use, n)
			if !sameResult(got, whole) {
				t.Fatalf("%s, %d shards: merged %+v (witness %v), whole %+v (witness %v)", c.name, n, got, got.Witness, whole, whole.Witness)
			}
			if split := parts[0].Sizes > 0; split != c.split {
				t.Errorf("%s: split %v, want %v", c.name, split, c.split)
			}
			if n == 1 && parts[0].First != nil && parts[0].First.Len() > whole.Witness.Len() {
				improved++
			}
		}
		if !whole.Nondominated && !isWitness(c.f, whole.Witness) {
			t.Errorf("%s: %v is not a witness", c.name, whole.Witness)
		}
	}
	if improved == 0 {
		t.Error("no case where the first witness is not the smallest: the split sizes were never searched")
	}
}

// Parts that do not fit together are refused: a size missing or answered
// twice, a first witness of another run, the whole result missing.
func TestSmallestMergeRefuses(t *testing.T) {
	f := join(uniform(t, 5, 4, 2), 0, uniform(t, 5, 4, 2))
	shard := func(i, n int) *SmallestPart {
		p, err := SmallestShard(context.Background(), f, func(p int) bool { return p%n == i })
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := shard(0, 3), shard(1, 3), shard(2, 3)
	if a.Sizes*a.Cubes < 3 {
		t.Fatalf("%d pieces", a.Sizes*a.Cubes)
	}
	for _, tt := range []struct {
		parts []*SmallestPart
		want  string
	}{
		{[]*SmallestPart{a, b}, "no part answers"},
		{[]*SmallestPart{a, b, c, c}, "twice"},
		{[]*SmallestPart{a, b, shard(2, 3)}, ""},
	} {
		_, err := MergeSmallest(context.Background(), f, tt.parts)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%d parts: %v, want %q", len(tt.parts), err, tt.want)
		}
	}
	other, err := SmallestShard(context.Background(), join(uniform(t, 5, 4, 2), 1, uniform(t, 4, 3, 2)), func(p int) bool { return p%3 == 2 })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MergeSmallest(context.Background(), f, []*SmallestPart{a, b, other}); err == nil {
		t.Error("a part of another system merged")
	}
	plane := func(i int) *SmallestPart {
		p, err := SmallestShard(context.Background(), pg(t, 3), func(p int) bool { return p%2 == i })
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := MergeSmallest(context.Background(), pg(t, 3), []*SmallestPart{plane(1)}); err == nil || !strings.Contains(err.Error(), "piece 0") {
		t.Errorf("without the shard that holds the result: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SmallestShard(ctx, f, func(int) bool { return true }); err == nil {
		t.Error("a cancelled shard gave a part")
	}
}

// A shard resumed from some of its answers asks only the others, saves
// after each, and ends with the part of an uninterrupted run; answers that
// are not the shard's, or witnesses that are not, are refused. What the
// answers so far prove brackets the smallest size.
func TestSmallestShardResume(t *testing.T) {
	ctx := context.Background()
	f := grid(5, 6)
	all := func(int) bool { return true }
	full, err := SmallestShard(ctx, f, all)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Answers) < 2 {
		t.Fatalf("%d answers", len(full.Answers))
	}
	saves := 0
	resumed, err := SmallestShardFrom(ctx, f, all, full.Answers[:1], func(p *SmallestPart) error {
		saves++
		if len(p.Answers) != 1+saves {
			t.Errorf("save %d holds %d answers", saves, len(p.Answers))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if saves != len(full.Answers)-1 {
		t.Errorf("%d saves for %d new answers", saves, len(full.Answers)-1)
	}
	a, _ := MergeSmallest(ctx, f, []*SmallestPart{full})
	b, _ := MergeSmallest(ctx, f, []*SmallestPart{resumed})
	if !sameResult(a, b) {
		t.Errorf("resumed %+v, uninterrupted %+v", b, a)
	}
	best, lower := SmallestProved([]*SmallestPart{{First: full.First, Lower: full.Lower, Sizes: full.Sizes, Cubes: full.Cubes, Answers: full.Answers[:1]}})
	if lower > a.Witness.Len() || best.Len() < a.Witness.Len() {
		t.Errorf("proved %d..%d, the smallest has %d", lower, best.Len(), a.Witness.Len())
	}
	outside := SizeAnswer{Size: full.Lower + full.Sizes, Cube: 0, Witness: nil}
	if _, err := SmallestShardFrom(ctx, f, all, []SizeAnswer{outside}, nil); err == nil {
		t.Error("an answer outside the split accepted")
	}
	fake := SizeAnswer{Size: full.Lower + full.Sizes - 1, Witness: set.Of(0, 1)}
	if _, err := SmallestShardFrom(ctx, f, all, []SizeAnswer{fake}, nil); err == nil {
		t.Error("a false witness accepted")
	}
	other := func(p int) bool { return p%2 == 1 }
	if _, err := SmallestShardFrom(ctx, f, other, full.Answers[:1], nil); err == nil {
		t.Error("another shard's answer accepted")
	}
}

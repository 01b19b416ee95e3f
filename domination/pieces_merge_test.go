package domination

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// shardCounts counts every shard of n of f.
func shardCounts(t *testing.T, _ *set.Family, counts func(sp shard.Spec) *PieceCount, n int) []*ShardCount {
	t.Helper()
	var out []*ShardCount
	for i := 1; i <= n; i++ {
		out = append(out, counts(shard.Spec{Index: i, Count: n}).Share())
	}
	return out
}

// The merge of the counts of N = 1, 2, 3 shards is the unsplit count:
// random families (checked against brute force over all 2^n sets for
// n ≤ 12 through CountTransversals) and the grid 5×5, cut into many
// pieces.
func TestMergeShardCountsEqualsWhole(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 11))
	grid, err := construct.Grid(5, 5, 25)
	if err != nil {
		t.Fatal(err)
	}
	fams := []*set.Family{grid}
	for range 8 {
		fams = append(fams, randomFamily(r, 5+r.IntN(8), 2+r.IntN(20), 0.2+0.4*r.Float64()))
	}
	for _, x := range fams {
		f := x
		whole, err := CountTransversals(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if f.N <= 12 {
			if brute := bruteMinimalTransversals(f); whole.Total.Cmp(big.NewInt(int64(len(brute)))) != 0 {
				t.Fatalf("%v: %v, brute force %d", f, whole.Total, len(brute))
			}
		}
		for n := 1; n <= 3; n++ {
			counts := shardCounts(t, f, func(sp shard.Spec) *PieceCount {
				pc, err := CountTransversalPieces(ctx, f, sp.Owns, nil, Options{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return pc
			}, n)
			got, err := MergeShardCounts(counts)
			if err != nil {
				t.Fatal(err)
			}
			if !sameCount(got, whole) {
				t.Errorf("%v in %d shards: %v %v, whole %v %v", f, n, got.Total, got.BySize, whole.Total, whole.BySize)
			}
		}
	}
}

// Counts that do not make a whole are refused: one shard missing, one of
// another family (another cut), one unfinished, one tampered with (a
// piece more than it owns). (A shard given twice under two labels is
// shard.Check's to refuse.)
func TestMergeShardCountsRefuses(t *testing.T) {
	ctx := context.Background()
	grid, err := construct.Grid(5, 5, 25)
	if err != nil {
		t.Fatal(err)
	}
	other, err := construct.Grid(3, 3, 9)
	if err != nil {
		t.Fatal(err)
	}
	count := func(f *set.Family, sp shard.Spec) *PieceCount {
		pc, err := CountTransversalPieces(ctx, f, sp.Owns, nil, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pc
	}
	three := shardCounts(t, grid, func(sp shard.Spec) *PieceCount { return count(grid, sp) }, 3)
	foreign := count(other, shard.Spec{Index: 2, Count: 3}).Share()
	unfinished := *three[1]
	unfinished.PiecesDone--
	tampered := *three[2]
	tampered.PiecesDone++
	for _, c := range []struct {
		name  string
		parts []*ShardCount
		want  string
	}{
		{"missing", three[:2], "of its"},
		{"foreign", []*ShardCount{three[0], foreign, three[2]}, "cut the search into"},
		{"unfinished", []*ShardCount{three[0], &unfinished, three[2]}, "shard 2/3 counted"},
		{"tampered", []*ShardCount{three[0], three[1], &tampered}, "shard 3/3 counted"},
		{"none", nil, "no counts"},
	} {
		_, err := MergeShardCounts(c.parts)
		var me *shard.MergeError
		if !errors.As(err, &me) || !strings.Contains(me.Msg, c.want) {
			t.Errorf("%s: %v, want a MergeError saying %q", c.name, err, c.want)
		}
	}
}

package availability

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// shares computes the share of every shard of n.
func shares(t *testing.T, f *set.Family, n int, o ShareOptions) []*Share {
	t.Helper()
	var out []*Share
	for i := 1; i <= n; i++ {
		sh, err := ComputeShare(context.Background(), f, shard.Spec{Index: i, Count: n}, o)
		if err != nil {
			t.Fatalf("shard %d/%d: %v", i, n, err)
		}
		out = append(out, sh)
	}
	return out
}

// The merge of the shares of N = 1, 2, 3 shards is the unsplit result:
// exact polynomials split in pieces by BDD (random families, checked
// against brute force over all 2^n sets, and billiard q = 7 against the
// unsplit BDD), a closed form carried whole by shard 1 (the 4×4 grid),
// and a Monte Carlo estimate split by samples (the same estimate as the
// unsplit one, hit for hit).
func TestMergeSharesEqualsWhole(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(8, 21))
	var fams []*set.Family
	for range 6 {
		fams = append(fams, randomFamily(r, 8+r.IntN(6), 2+r.IntN(10), 0.4))
	}
	b7, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	grid, err := construct.Grid(4, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	fams = append(fams, b7, grid)
	for _, f := range fams {
		var want *Polynomial
		if f.N <= 14 {
			want, err = Brute(ctx, f)
		} else {
			var res *Result
			res, err = Compute(ctx, f, Options{})
			if err == nil {
				want = res.Poly
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 3; n++ {
			ss := shares(t, f, n, ShareOptions{Options: Options{Method: MethodBDD}})
			if f == grid {
				ss = shares(t, f, n, ShareOptions{})
				if ss[0].Kind != ShareWhole || n > 1 && ss[1].Kind != ShareNone {
					t.Fatalf("grid in %d shards: shares %q, %q", n, ss[0].Kind, ss[len(ss)-1].Kind)
				}
			} else if ss[0].Kind != SharePieces {
				t.Fatalf("%v: share %q, want pieces", f, ss[0].Kind)
			}
			res, pts, err := MergeShares(ctx, ss, []float64{0.9})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || !res.Poly.Equal(want) {
				t.Errorf("%v in %d shards: %v, want %v", f, n, res.Poly, want)
			}
			if len(pts) != 1 || !pts[0].Exact {
				t.Errorf("%v in %d shards: points %+v", f, n, pts)
			}
		}
	}
	// An estimate: every shard's share of the samples adds up to the
	// unsplit estimate of the same seed (billiard q = 9, whose
	// coefficients are not all provable).
	ps := []float64{0.6, 0.95}
	big, err := construct.Billiard(9)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Compute(ctx, big, Options{Method: MethodEstimate})
	if err != nil || whole.Exact {
		t.Fatal(err, whole.Exact)
	}
	wantPts, err := whole.Evaluate(ctx, ps, EvalOptions{Samples: 4096, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		ss := shares(t, big, n, ShareOptions{Options: Options{Method: MethodEstimate}, Points: ps, Samples: 4096, Seed: 9})
		res, pts, err := MergeShares(ctx, ss, ps)
		if err != nil {
			t.Fatal(err)
		}
		if res.Exact {
			t.Fatalf("estimate in %d shards is exact", n)
		}
		for k := range ps {
			g, w := pts[k].Estimate, wantPts[k].Estimate
			if g.Hits != w.Hits || g.Samples != w.Samples || pts[k].Lo != wantPts[k].Lo || pts[k].Hi != wantPts[k].Hi {
				t.Errorf("estimate in %d shards at %v: %+v, unsplit %+v", n, ps[k], g, w)
			}
		}
	}
}

// Shares that do not make a whole are refused: one missing, one given
// twice, a foreign one (of another family), an unfinished one, one whose
// sum was tampered with (its pieces count changed), and mixed kinds.
func TestMergeSharesRefuses(t *testing.T) {
	ctx := context.Background()
	b7, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	b5, err := construct.Billiard(5)
	if err != nil {
		t.Fatal(err)
	}
	grid, err := construct.Grid(4, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	three := shares(t, b7, 3, ShareOptions{})
	other := shares(t, b5, 3, ShareOptions{})
	whole := shares(t, grid, 3, ShareOptions{})
	starved, err := ComputeShare(ctx, b7, shard.Spec{Index: 2, Count: 3}, ShareOptions{Options: Options{Budget: 30}})
	if err != nil {
		t.Fatal(err)
	}
	if owned := (shard.Spec{Index: 2, Count: 3}).Owned(starved.Pieces); starved.Exact || starved.PiecesDone >= owned || !strings.Contains(starved.Reason, "pieces done") {
		t.Fatalf("a starved shard: %+v", starved)
	}
	tampered := *three[1]
	tampered.PiecesDone--
	recut, unnamed := *three[1], *three[1]
	recut.Split, unnamed.Split = "nodes 1,2,3", ""
	for _, c := range []struct {
		name   string
		shares []*Share
		want   string
	}{
		{"missing", three[:2], "owns"},
		{"twice", []*Share{three[0], three[0], three[2]}, "owns"},
		{"foreign", []*Share{three[0], other[1], three[2]}, "split level 0 differently"},
		{"unfinished", []*Share{three[0], starved, three[2]}, "did not finish its pieces"},
		{"tampered", []*Share{three[0], &tampered, three[2]}, "summed"},
		{"cut otherwise", []*Share{three[0], &recut, three[2]}, "split level 0 differently"},
		{"cut unsaid", []*Share{three[0], &unnamed, three[2]}, "split level 0 differently"},
		{"mixed", []*Share{whole[0], three[1], three[2]}, "split level 0 differently"},
		{"no whole", []*Share{whole[1], whole[1], whole[2]}, "should hold the whole result"},
	} {
		_, _, err := MergeShares(ctx, c.shares, nil)
		var me *MergeError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want a MergeError saying %q", c.name, err, c.want)
		}
		if c.name == "unfinished" && (!me.Unfinished || me.Shard != (shard.Spec{Index: 2, Count: 3})) {
			t.Errorf("unfinished: %+v", me)
		}
	}
}

// A run resumed from its checkpoint gives what an uninterrupted run
// gives: stopped by a budget (some pieces over it) and by a cancel after
// a few pieces, saved, and resumed, whole and as shard 2 of 3.
func TestResumeEqualsUninterrupted(t *testing.T) {
	ctx := context.Background()
	f, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Compute(ctx, f, Options{Method: MethodBDD})
	if err != nil || !whole.Exact {
		t.Fatal(err)
	}
	// Starved by the budget: the result is what Settle proves; the
	// checkpoint holds the pieces done.
	var (
		ck    *Checkpoint
		o     ShareOptions
		res   *Result
		st    *PieceState
		saves int
	)
	for budget := 30; budget < 1<<16; budget *= 2 {
		ck, saves = &Checkpoint{}, 0
		o = ShareOptions{Options: Options{Budget: budget}, Checkpoint: ck, Save: func(*Checkpoint) error { saves++; return nil }}
		if res, err = ComputeResumable(ctx, f, o); err != nil {
			t.Fatal(err)
		}
		if st, err = ck.State(0, f.N, SplitBits(f.N, 1)); err != nil {
			t.Fatal(err)
		}
		if st != nil && len(st.Done) > 1<<st.Bits/4 {
			break
		}
	}
	if st == nil || res.Method == MethodBDD || saves != len(st.Done) || len(st.Done) == 0 || len(st.Done) == 1<<st.Bits {
		t.Fatalf("a starved run: exact %v, %d saves, %d pieces done", res.Exact, saves, len(st.Done))
	}
	// Resumed with the default budget: every piece, the whole polynomial.
	o.Budget = 0
	res, err = ComputeResumable(ctx, f, o)
	if err != nil || !res.Exact || !res.Poly.Equal(whole.Poly) {
		t.Fatalf("resumed: %v %v, want %v", res, err, whole.Poly)
	}
	// Cancelled after three pieces, then resumed, as shard 2 of 3: the
	// same share as an uninterrupted shard 2 of 3.
	sp := shard.Spec{Index: 2, Count: 3}
	want, err := ComputeShare(ctx, f, sp, ShareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ck = &Checkpoint{}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	o = ShareOptions{Checkpoint: ck, Save: func(*Checkpoint) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	}}
	_, err = ComputeShare(cctx, f, sp, o)
	var stop *PiecesStopped
	if !errors.As(err, &stop) || !stop.Interrupted || !errors.Is(err, context.Canceled) || stop.Done < 3 || stop.Done >= stop.Owned {
		t.Fatalf("cancelled shard: %v (%+v)", err, stop)
	}
	got, err := ComputeShare(ctx, f, sp, o)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Exact || got.PiecesDone != want.PiecesDone || !got.Poly.Equal(want.Poly) {
		t.Errorf("resumed shard 2/3: %d pieces %v, uninterrupted %d pieces %v", got.PiecesDone, got.Poly, want.PiecesDone, want.Poly)
	}
	// A checkpoint of another split is refused.
	if _, err := ComputeShare(ctx, f, shard.Spec{Index: 2, Count: 300}, o); err == nil || !strings.Contains(err.Error(), "pieces, this run into") {
		t.Errorf("a checkpoint of another split: %v", err)
	}
}

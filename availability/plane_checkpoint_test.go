package availability

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// A shard of the plane sweep cancelled after some pieces and resumed from
// its checkpoint sweeps only the pieces it had not done, and gives the
// share of an uninterrupted run; merged with the other shards it is the
// polynomial of the unsplit sweep. The same for a whole run of one
// shard (ComputeResumable's pieces). PG(2,4) splits the directions
// before the first row, PG(2,5) the states after it.
func TestPlaneCheckpointResume(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{4, 5} {
		f := projectivePlane(t, q)
		want, err := PlanePolynomial(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		const n = 3
		sp := shard.Spec{Index: 2, Count: n}
		var whole []*Share
		for i := 1; i <= n; i++ {
			sh, err := planeShare(ctx, f, shard.Spec{Index: i, Count: n}, &ShareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			whole = append(whole, sh)
		}
		owned := sp.Owned(1 << SplitBits(f.N, n))

		// Cancelled once two pieces are saved.
		ck := &Checkpoint{}
		cctx, cancel := context.WithCancel(ctx)
		saves := 0
		var saved []*PieceState
		o := &ShareOptions{Checkpoint: ck, Family: 0, Save: func(c *Checkpoint) error {
			st, err := c.State(0, f.N, SplitBits(f.N, n))
			if err != nil {
				return err
			}
			saved = append(saved, st)
			if saves++; saves == 2 {
				cancel()
			}
			return nil
		}}
		_, err = planeShare(cctx, f, sp, o)
		cancel()
		var stop *PiecesStopped
		if !errors.As(err, &stop) || !stop.Interrupted || !errors.Is(err, context.Canceled) || stop.Plane != q || stop.Done != 2 || stop.Owned != owned {
			t.Fatalf("PG(2,%d) cancelled shard: %v (%+v)", q, err, stop)
		}
		st, err := ck.State(0, f.N, SplitBits(f.N, n))
		if err != nil || st == nil || len(st.Done) != 2 || st.Split != planeSplitID(q) {
			t.Fatalf("PG(2,%d) checkpoint after the cancel: %+v %v", q, st, err)
		}
		for _, j := range st.Done {
			if !sp.Owns(j) {
				t.Errorf("PG(2,%d): shard %s saved piece %d, which it does not own", q, sp, j)
			}
		}
		// The two pieces saved are worth what they are worth alone.
		alone, err := PlanePieces(ctx, q, 1<<st.Bits, st.Done, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := sumCounts(f.N, alone...); !polyIs(st.Sum, got) {
			t.Errorf("PG(2,%d): the checkpoint's sum %v is not its pieces' %v", q, st.Sum, got)
		}

		// Resumed: only the other pieces are swept.
		saves, saved = 0, nil
		o.Save = func(c *Checkpoint) error { saves++; return nil }
		got, err := planeShare(ctx, f, sp, o)
		if err != nil {
			t.Fatal(err)
		}
		if saves != owned-2 {
			t.Errorf("PG(2,%d): the resumed shard swept %d pieces, want %d", q, saves, owned-2)
		}
		if !got.Exact || got.PiecesDone != owned || !got.Poly.Equal(whole[1].Poly) || got.Split != whole[1].Split {
			t.Errorf("PG(2,%d) resumed shard %s: %+v, uninterrupted %+v", q, sp, got, whole[1])
		}
		res, _, err := MergeShares(ctx, []*Share{whole[0], got, whole[2]}, nil)
		if err != nil || !res.Exact || res.Method != MethodPlane || !res.Poly.Equal(want) {
			t.Errorf("PG(2,%d) merged with the resumed shard: %v %v", q, res, err)
		}

		// A whole run (one shard), cancelled after one piece and resumed.
		ck = &Checkpoint{}
		cctx, cancel = context.WithCancel(ctx)
		o = &ShareOptions{Checkpoint: ck, Save: func(*Checkpoint) error { cancel(); return nil }}
		if _, _, err := planeResumable(cctx, f, o); !errors.As(err, &stop) || !stop.Interrupted || stop.Done != 1 {
			t.Fatalf("PG(2,%d) cancelled whole run: %v", q, err)
		}
		cancel()
		o.Save = nil
		r, _, err := planeResumable(ctx, f, o)
		if err != nil || !r.Exact || r.Method != MethodPlane || !r.Poly.Equal(want) {
			t.Errorf("PG(2,%d) resumed whole run: %v %v", q, r, err)
		}

		// Checkpoints of another split are refused: pieces cut by a BDD,
		// and pieces of another number of shards.
		bdd := &Checkpoint{}
		bdd.Record(0, &PieceState{Bits: SplitBits(f.N, n), Split: "nodes 1,2,3,4,5,6", Done: []int{1}, Sum: NewPolynomial(f.N)})
		if _, err := planeShare(ctx, f, sp, &ShareOptions{Checkpoint: bdd}); err == nil || !strings.Contains(err.Error(), "start afresh") {
			t.Errorf("PG(2,%d): a checkpoint of BDD pieces: %v", q, err)
		}
		if _, err := planeShare(ctx, f, shard.Spec{Index: 2, Count: 300}, &ShareOptions{Checkpoint: ck}); err == nil || !strings.Contains(err.Error(), "pieces, this run into") {
			t.Errorf("PG(2,%d): a checkpoint of another number of pieces: %v", q, err)
		}
	}
}

// A shard of the plane sweep stopped by its time limit is inexact, says
// how many pieces it did, and keeps them in its checkpoint.
func TestPlaneCheckpointTime(t *testing.T) {
	ctx := context.Background()
	f := projectivePlane(t, 5)
	ck := &Checkpoint{}
	sh, err := planeShare(ctx, f, shard.Spec{Index: 1, Count: 2}, &ShareOptions{Options: Options{Time: time.Nanosecond}, Checkpoint: ck})
	if err != nil {
		t.Fatal(err)
	}
	if sh.Exact || !strings.Contains(sh.Reason, "did not finish within 1ns") || !strings.Contains(sh.Reason, "pieces done") {
		t.Errorf("a shard out of time: %+v", sh)
	}
	if _, _, err := MergeShares(ctx, []*Share{sh, sh}, nil); err == nil {
		t.Error("a shard out of time merged")
	}
}

// polyIs reports whether p's coefficients are the counts c.
func polyIs(p *Polynomial, c []*big.Int) bool {
	if len(p.A) != len(c) {
		return false
	}
	for i := range c {
		if p.A[i].Cmp(c[i]) != 0 {
			return false
		}
	}
	return true
}

// A piece reported done is final: with no budget (each piece as it is
// done), and under a memory budget that makes the row before the split in
// parts (3.5 KiB: every piece at the end), the count
// each callback hears is the piece's count at the end, every piece is
// heard once, and the pieces add up to the plane's polynomial.
func TestPlanePiecesDoneFinal(t *testing.T) {
	if testing.Short() {
		t.Skip("the smallest budget sweeps PG(2,5) in hundreds of parts (seconds)")
	}
	ctx := context.Background()
	const q, n, of = 5, 31, 8
	want, err := PlanePolynomial(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	which := []int{0, 1, 2, 3, 4, 5, 6, 7}
	parted := 0
	for _, mb := range []int64{0, 3584} {
		heard := map[int][]*big.Int{}
		var order []int
		before := false // the row before the split (row 0) made in parts
		progress := func(stage string, done, _ int64) {
			if done == 1 && strings.Contains(stage, "sweeping rows") && strings.Contains(stage, ", part ") {
				before = true
			}
		}
		out, err := planePieces(ctx, q, of, which, progress, mb, func(i int, c []*big.Int) error {
			cp := make([]*big.Int, len(c))
			for e, v := range c {
				cp[e] = new(big.Int).Set(v)
			}
			heard[i] = cp
			order = append(order, i)
			return nil
		})
		if err != nil {
			if errors.Is(err, set.ErrMemoryBudget) {
				t.Logf("budget %d: %v", mb, err)
				continue
			}
			t.Fatal(err)
		}
		if len(order) != len(which) {
			t.Errorf("budget %d: heard %v", mb, order)
		}
		for i, c := range out {
			if !polyIs(&Polynomial{N: n, A: heard[i]}, c) {
				t.Errorf("budget %d: piece %d heard %v, final %v", mb, which[i], heard[i], c)
			}
		}
		got, err := PlaneFromPieces(q, sumCounts(n, out...))
		if err != nil || !got.Equal(want) {
			t.Errorf("budget %d: %v %v", mb, got, err)
		}
		if before {
			parted++
		}
		t.Logf("budget %d: parts before the split %v, pieces heard in order %v", mb, before, order)
	}
	if parted == 0 {
		t.Error("no budget made the rows before the split in parts")
	}
}

package partfile

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/shard"
)

// A Partial survives JSON, and so do its bounds.
func TestPartialJSON(t *testing.T) {
	f, err := construct.Billiard(13)
	if err != nil {
		t.Fatal(err)
	}
	p := availability.NewPartial(context.Background(), f)
	data, err := json.Marshal(partialOf(p))
	if err != nil {
		t.Fatal(err)
	}
	var w partial
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	q, err := w.decode()
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(q) {
		t.Fatalf("read back %+v, want %+v", q, p)
	}
	for _, x := range []float64{0.3, 0.7, 0.95} {
		l1, h1 := p.Bounds(x)
		l2, h2 := q.Bounds(x)
		if l1 != l2 || h1 != h2 {
			t.Errorf("bounds at %v: %v %v, read back %v %v", x, l1, h1, l2, h2)
		}
	}
	if err := json.Unmarshal([]byte(`{"n": 2, "coefficients": ["1"]}`), &w); err != nil {
		t.Fatal(err)
	}
	if _, err := w.decode(); err == nil {
		t.Error("a partial with too few coefficients was accepted")
	}
}

// The shares of every shard survive the part file: written, read back
// and decoded, they merge to what the shares themselves merge to, for
// pieces (billiard q = 7), a closed form carried whole (a 4×4 grid) and
// an estimate (the billiard with --method estimate).
func TestAvailabilityPartRoundTrip(t *testing.T) {
	ctx := context.Background()
	b7, err := construct.Billiard(7)
	if err != nil {
		t.Fatal(err)
	}
	grid, err := construct.Grid(4, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	ps := []float64{0.5, 0.9}
	for _, c := range []struct {
		f *set.Family
		m availability.Method
	}{{b7, availability.MethodAuto}, {grid, availability.MethodAuto}, {b7, availability.MethodEstimate}} {
		const n = 3
		hash := shard.HashInput([]byte("x"))
		var direct, read []*availability.Share
		for i := 1; i <= n; i++ {
			sp := shard.Spec{Index: i, Count: n}
			sh, err := availability.ComputeShare(ctx, c.f, sp, availability.ShareOptions{Options: availability.Options{Method: c.m}, Points: ps, Samples: 4096, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			direct = append(direct, sh)
			p, err := AvailabilityPart(sp, hash, AvailabilityOptions{Name: "f", Points: ps}, AvailabilityResult{N: c.f.N, K: 1, Shares: []*availability.Share{sh}})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := shard.Write(&b, p); err != nil {
				t.Fatal(err)
			}
			back, err := shard.Read(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			o, rs, err := DecodeAvailability([]*shard.Part{back})
			if err != nil {
				t.Fatal(err)
			}
			if o.Name != "f" || len(rs) != 1 || len(rs[0].Shares) != 1 {
				t.Fatalf("decoded %+v %+v", o, rs)
			}
			read = append(read, rs[0].Shares[0])
		}
		r1, p1, err := availability.MergeShares(ctx, direct, ps)
		if err != nil {
			t.Fatal(err)
		}
		r2, p2, err := availability.MergeShares(ctx, read, ps)
		if err != nil {
			t.Fatal(err)
		}
		if r1.Exact != r2.Exact || r1.Exact && r1.Poly.String() != r2.Poly.String() {
			t.Errorf("%v: merged from the files %v, from the shares %v", c.m, r2.Poly, r1.Poly)
		}
		for k := range p1 {
			if p1[k].AV != p2[k].AV {
				t.Errorf("%v at p = %v: %v from the files, %v from the shares", c.m, ps[k], p2[k].AV, p1[k].AV)
			}
		}
	}
}

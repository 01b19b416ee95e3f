package availability

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coterie-dev/coterie/galois"
	"github.com/coterie-dev/coterie/set"
)

// The plane sweep agrees with brute force (q = 2, 3) and the BDD (q = 4,
// over GF(4), and q = 5).
func TestPlanePolynomial(t *testing.T) {
	ctx := context.Background()
	for _, q := range []int{2, 3, 4, 5} {
		f := projectivePlane(t, q)
		if got, ok := planeOrder(f); !ok || got != q {
			t.Fatalf("planeOrder(PG(2,%d)) = %d, %v", q, got, ok)
		}
		got, err := PlanePolynomial(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want *Polynomial
		if f.N <= 20 {
			want, err = Brute(ctx, f)
		} else {
			var b *BDD
			b, err = BuildBDD(ctx, f, BDDOptions{})
			if err == nil {
				want, err = b.Count(ctx)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Errorf("PG(2,%d):\nsweep %v\nwant  %v", q, got, want)
		}
	}
}

// The pruned canonical form is the largest image over all q²(q−1) maps,
// computed naively here with the field's own arithmetic, for sparse and
// dense states, over prime fields and GF(4), GF(8).
func TestPlaneCanon(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, q := range []int{3, 4, 5, 7, 8} {
		s := newPlaneSweep(q)
		f := galois.MustNew(q)
		for it := range 3000 {
			var x uint64
			d := r.Float64()
			if it%3 == 0 {
				d /= 8
			}
			for b := range q * q {
				if r.Float64() < d {
					x |= 1 << b
				}
			}
			want := uint64(0)
			for l := 1; l < q; l++ {
				for c := range q {
					for sh := range q {
						var img uint64
						for b := range q * q {
							if x>>b&1 == 1 {
								m, a := b/q, b%q
								img |= 1 << (f.Add(f.Mul(l, m), c)*q + f.Add(f.Mul(l, a), sh))
							}
						}
						want = max(want, img)
					}
				}
			}
			if got := s.canon(x); got != want {
				t.Fatalf("q=%d: canon(%#x) = %#x, want %#x", q, x, got, want)
			}
		}
	}
}

// The sweep's tables describe AG(2,q) over GF(q), q a prime power: two
// affine lines of different directions meet on exactly one row, lines of
// one direction are disjoint, and alive[y][R] keeps a line iff its point
// on row y is in R.
func TestPlaneSweepTables(t *testing.T) {
	for _, q := range PlaneOrders() {
		s := newPlaneSweep(q)
		for b := range q * q {
			for c := b + 1; c < q*q; c++ {
				meet := 0
				for y := range q {
					if s.rowPos[y][b] == s.rowPos[y][c] {
						meet++
					}
				}
				want := 1
				if b/q == c/q {
					want = 0
				}
				if meet != want {
					t.Fatalf("q=%d: lines %d and %d meet on %d rows, want %d", q, b, c, meet, want)
				}
			}
		}
		for y := range q {
			for pat := range 1 << q {
				for b := range q * q {
					got := s.alive[y][pat]>>b&1 == 1
					if want := pat>>s.rowPos[y][b]&1 == 1; got != want {
						t.Fatalf("q=%d: alive[%d][%#x] has line %d = %v", q, y, pat, b, got)
					}
				}
			}
		}
	}
}

// Compute takes the sweep for PG(2,4), over GF(4), and for PG(2,8) it
// stops at the memory budget and settles for what can be proved, without
// trying the BDD.
func TestComputePlaneOrders(t *testing.T) {
	ctx := context.Background()
	r, err := Compute(ctx, projectivePlane(t, 4), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exact || r.Method != MethodPlane {
		t.Errorf("PG(2,4): exact %v by %q, want exact by %q", r.Exact, r.Method, MethodPlane)
	}
	r, err = Compute(ctx, projectivePlane(t, 8), Options{MaxMemory: 1 << 10})
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Fatalf("PG(2,8) under 1 KiB: err %v, want ErrMemoryBudget", err)
	}
	if r == nil || r.Exact || r.Partial == nil || r.Cause != CauseMemory {
		t.Fatalf("PG(2,8) under 1 KiB: %+v", r)
	}
	// The lines are the smallest quorums: A_9 = 73 is proved.
	if !r.Partial.Known[9] || r.Partial.A[9].Int64() != 73 {
		t.Errorf("PG(2,8): A_9 = %v (known %v), want 73", r.Partial.A[9], r.Partial.Known[9])
	}
}

// Under a memory budget too small for the states after a row the sweep
// makes them in parts, each going on alone to the end, with the same
// result (PG(2,5): the last stored row is split in parts).
func TestPlaneSweepParts(t *testing.T) {
	ctx := context.Background()
	want, err := PlanePolynomial(ctx, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{12 << 10, 16 << 10} {
		parts := 0
		got, err := planePolynomial(ctx, 5, func(stage string, _, _ int64) {
			if strings.Contains(stage, "sweeping rows") && strings.Contains(stage, "part") {
				parts++
			}
		}, budget)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if parts < 2 {
			t.Errorf("budget %d: %d parts, want the last row split", budget, parts)
		}
		if !got.Equal(want) {
			t.Errorf("budget %d: %v, want %v", budget, got.A, want.A)
		}
	}
}

// The row symmetries merge only states that are finished in the same
// number of ways: for a state x after the rows 0..k−1 and each map g of
// rowSym[k], the sets of the remaining rows that leave no line of x whole
// number the same, size by size, for x and g(x) (brute force over the
// remaining rows, up to 16 points).
func TestPlaneRowSymmetries(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, q := range PlaneOrders() {
		s := newPlaneSweep(q)
		for k := 1; k < q; k++ {
			rows := q - k
			if q*rows > 16 || len(s.rowSym[k]) == 0 {
				continue
			}
			// whole[f]: the lines whose points on the remaining rows are
			// all in the filling f (row k+j's pattern in bits j·q...).
			whole := make([]uint64, 1<<(q*rows))
			for f := range whole {
				w := ^uint64(0)
				for j := range rows {
					w &= s.alive[k+j][f>>(j*q)&(1<<q-1)]
				}
				whole[f] = w
			}
			finish := func(x uint64) []int {
				c := make([]int, q*rows+1)
				for f, w := range whole {
					if w&x == 0 {
						c[bits.OnesCount(uint(f))]++
					}
				}
				return c
			}
			for range 20 {
				var x uint64
				d := r.Float64() / 2
				for b := range q * q {
					if r.Float64() < d {
						x |= 1 << b
					}
				}
				want := finish(x)
				for _, g := range s.rowSym[k] {
					var img uint64
					for b := range q * q {
						if x>>b&1 == 1 {
							img |= 1 << g[b]
						}
					}
					if got := finish(img); !slices.Equal(got, want) {
						t.Fatalf("q=%d k=%d: x=%#x finishes %v ways, its image %#x %v", q, k, x, want, img, got)
					}
				}
			}
		}
	}
}

// TestPlaneSweepStopsWithinAState: once its context is cancelled, the
// sweep of PG(2,7) starts no more states than it has workers (each may
// have looked at the context just before the cancel), where looking once
// a chunk let every worker expand up to 256 more.
func TestPlaneSweepStopsWithinAState(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started, after atomic.Int64
	testHookSweepState = func() {
		if ctx.Err() != nil {
			after.Add(1)
		}
		if started.Add(1) == 3000 {
			cancel()
		}
	}
	defer func() { testHookSweepState = nil }()
	_, err := PlanePolynomial(ctx, 7, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled after 3000 states: err = %v", err)
	}
	if workers := int64(runtime.GOMAXPROCS(0)); after.Load() > workers {
		t.Errorf("%d states started after the cancel, with %d workers", after.Load(), workers)
	}
}

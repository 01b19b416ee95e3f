package testsys_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coterie-dev/coterie/internal/testsys"
	"github.com/coterie-dev/coterie/set"
)

func TestFamily(t *testing.T) {
	a := testsys.Family(rand.New(rand.NewPCG(1, 2)), 9, 12, 0.3)
	b := testsys.Family(rand.New(rand.NewPCG(1, 2)), 9, 12, 0.3)
	if a.N != 9 || len(a.Quorums) != 12 {
		t.Fatalf("%d quorums over %d nodes, want 12 over 9", len(a.Quorums), a.N)
	}
	for i := range a.Quorums {
		if a.Quorums[i].IsEmpty() || !set.Equal(&a.Quorums[i], &b.Quorums[i]) {
			t.Fatalf("quorum %d: %v and %v (same seed; none empty)", i, &a.Quorums[i], &b.Quorums[i])
		}
	}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestIntersecting(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		f := testsys.Intersecting(r, 2+r.IntN(10), 30, 0.5)
		for i := range f.Quorums {
			for j := range f.Quorums {
				if !set.Intersects(&f.Quorums[i], &f.Quorums[j]) {
					t.Fatalf("quorums %d and %d do not meet: %v", i, j, f)
				}
				if i != j && set.Subset(&f.Quorums[i], &f.Quorums[j]) {
					t.Fatalf("quorum %d inside %d: %v", i, j, f)
				}
			}
		}
	}
}

func TestVaried(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	thresholds, owned := 0, 0
	for range 200 {
		n := 1 + r.IntN(30)
		f := testsys.Varied(r, n, 2)
		if err := f.Validate(); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if f.IsThreshold() {
			thresholds++
		}
		if f.Owners != nil {
			owned++
		}
	}
	// Every shape occurs: about 1 in 6 thresholds, and owners on some.
	if thresholds == 0 || thresholds == 200 || owned == 0 {
		t.Errorf("%d thresholds, %d owned of 200", thresholds, owned)
	}
}

// TestPlane checks the projective plane axioms that the tests relying on
// Plane assume: q²+q+1 lines of q+1 points, any two meeting in one point.
func TestPlane(t *testing.T) {
	for _, q := range []int{2, 3, 4, 5} {
		f := testsys.Plane(t, q)
		n := q*q + q + 1
		if f.N != n || len(f.Quorums) != n {
			t.Fatalf("q=%d: %d lines over %d points", q, len(f.Quorums), f.N)
		}
		for i := range f.Quorums {
			if f.Quorums[i].Len() != q+1 {
				t.Fatalf("q=%d: line %d has %d points", q, i, f.Quorums[i].Len())
			}
			for j := i + 1; j < n; j++ {
				if c := set.IntersectionLen(&f.Quorums[i], &f.Quorums[j]); c != 1 {
					t.Fatalf("q=%d: lines %d and %d share %d points", q, i, j, c)
				}
			}
		}
	}
}

// TestSparse: the copy holds the same quorums, in the same order, as node
// lists; the family it was made from keeps its bit sets.
func TestSparse(t *testing.T) {
	f := testsys.Family(rand.New(rand.NewPCG(5, 6)), 20, 30, 0.3)
	g := testsys.Sparse(f)
	if !g.IsSparse() || g.Quorums != nil {
		t.Fatalf("Sparse(f) holds %d bit sets, sparse %v", len(g.Quorums), g.IsSparse())
	}
	if f.IsSparse() || len(f.Quorums) != 30 {
		t.Fatalf("Sparse changed f: %d bit sets, sparse %v", len(f.Quorums), f.IsSparse())
	}
	if g.N != f.N || g.Len() != f.Len() {
		t.Fatalf("Sparse(f) has %d nodes and %d quorums, f %d and %d", g.N, g.Len(), f.N, f.Len())
	}
	g.Densify()
	for i := range f.Quorums {
		if !set.Equal(&f.Quorums[i], &g.Quorums[i]) {
			t.Errorf("quorum %d: %v, sparse and back %v", i, &f.Quorums[i], &g.Quorums[i])
		}
	}
}

// TestStopAfterConcurrent: polled by several goroutines at once, the
// context still answers nil exactly Left times and counts every call.
func TestStopAfterConcurrent(t *testing.T) {
	ctx := &testsys.StopAfter{Context: context.Background(), Left: 150}
	var wg sync.WaitGroup
	var nils atomic.Int64
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if ctx.Err() == nil {
					nils.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if nils.Load() != 150 || ctx.Calls != 800 || ctx.Left != 0 {
		t.Fatalf("%d nil answers of %d calls, %d left; want 150 of 800, 0 left", nils.Load(), ctx.Calls, ctx.Left)
	}
}

package format_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// written is the size of sys written in f.
func written(t *testing.T, sys set.System, f format.Format) int64 {
	t.Helper()
	var b bytes.Buffer
	if err := format.Write(&b, sys, f, format.Options{Base: 1}); err != nil {
		t.Fatal(err)
	}
	return int64(b.Len())
}

func within(t *testing.T, what string, est, real int64, tol float64) {
	t.Helper()
	if d := float64(est - real); d > tol*float64(real) || -d > tol*float64(real) {
		t.Errorf("%s: estimate %d bytes, written %d", what, est, real)
	}
}

// The estimates are checked against the bytes the writer writes.
func TestEstimates(t *testing.T) {
	formats := []format.Format{format.JSON, format.Text, format.CSV, format.Dat}
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{7, 5000} {
		f := set.NewFamily(40)
		for range m {
			q := set.New(40)
			for v := range 40 {
				if r.IntN(4) == 0 {
					q.Add(v)
				}
			}
			f.Add(q, set.NoOwner)
		}
		for _, fm := range formats {
			est, err := format.EstimateFamily(f, fm, format.Options{Base: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The estimate guards against writing gigabytes: it leaves
			// out the closing of a JSON file, and a sample of the first
			// quorums has shorter quorum numbers in CSV, within 15%.
			within(t, string(fm)+" family", est, written(t, set.System{Family: f}, fm), 0.15)

			// The same quorums as a stream: exact below the sample.
			if m <= format.EstimateSample {
				size, exact, err := format.EstimateStream(f, func(yield func(*set.Set, int) bool) {
					for i := range f.Quorums {
						if !yield(&f.Quorums[i], f.Owner(i)) {
							return
						}
					}
				}, fm, format.Options{Base: 1})
				if err != nil || !exact || size != written(t, set.System{Family: f}, fm) {
					t.Errorf("%s stream: %d bytes, exact %v, %v; written %d", fm, size, exact, err, written(t, set.System{Family: f}, fm))
				}
			}
		}
	}
	// A threshold, listed: every quorum has the same size, and the digits
	// of an evenly spread one are the average.
	th := set.NewThreshold(12, 5)
	list, err := th.EnumerateContext(context.Background(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, fm := range formats {
		within(t, string(fm)+" threshold", format.EstimateThreshold(th, fm), written(t, set.System{Family: list}, fm), 0.15)
	}
}

package analysis_test

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/set"
)

// The Byzantine figures of a threshold family held by its rule are those
// of the same family listed.
func TestByzantineThresholdFormAgreesWithListed(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 7; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			a, err := analysis.MeasureFamily(ctx, f, analysis.Options{NoLoad: true, NoResilience: true})
			if err != nil {
				t.Fatal(err)
			}
			b, err := analysis.MeasureFamily(ctx, e, analysis.Options{NoLoad: true, NoResilience: true})
			if err != nil {
				t.Fatal(err)
			}
			if a.Byzantine == nil || b.Byzantine == nil || *a.Byzantine != *b.Byzantine {
				t.Errorf("%d of %d: Byzantine %+v (%v), listed %+v (%v)", w, n, a.Byzantine, a.ByzantineStatus, b.Byzantine, b.ByzantineStatus)
			}
		}
	}
}

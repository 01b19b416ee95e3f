package report

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/set"
)

// The metrics of a threshold family held by its rule are those of the
// same family listed, row for row, but for the rule's own row (the
// threshold, which the listed family does not record) and the resilience
// witness, which the listed family cites and the rule leaves out (any
// n − w + 1 nodes stop every quorum).
func TestMetricsThresholdFormAgreesWithListed(t *testing.T) {
	ctx := context.Background()
	for n := 2; n <= 6; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			rows := func(f *set.Family) map[string]string {
				fa, err := analysis.MeasureFamily(ctx, f, analysis.Options{NoByzantine: true})
				if err != nil {
					t.Fatal(err)
				}
				m := map[string]string{}
				for _, r := range metricsTable(newFamily(fa, 0)).rows {
					m[r[0]] = r[1]
				}
				return m
			}
			a, b := rows(f), rows(e)
			const witness = "resilience witness (these failing stop every quorum)"
			if a["threshold"] != strconv.Itoa(w) || a[witness] != "" {
				t.Errorf("%d of %d: threshold row %q, witness %q", w, n, a["threshold"], a[witness])
			}
			if _, ok := b["threshold"]; ok || b[witness] == "" {
				t.Errorf("%d of %d listed: threshold row %q, witness %q", w, n, b["threshold"], b[witness])
			}
			delete(a, "threshold")
			delete(b, witness)
			keys := func(m map[string]string) []string {
				var k []string
				for x := range m {
					k = append(k, x)
				}
				slices.Sort(k)
				return k
			}
			if !slices.Equal(keys(a), keys(b)) {
				t.Fatalf("%d of %d: rows %v, listed %v", w, n, keys(a), keys(b))
			}
			for k, v := range a {
				if b[k] != v {
					t.Errorf("%d of %d: %s = %q, listed %q", w, n, k, v, b[k])
				}
			}
		}
	}
}

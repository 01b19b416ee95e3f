package availability_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/domain"
	"github.com/coterie-dev/coterie/set"
)

// Nine nodes in three zones, nodes up 99% of the time and zones 99.9%:
// the majority of nine is up with probability 0.9999926173 (5.13 nines),
// where independent nodes would give 0.9999999878 (docs/domains.md).
func ExampleDomainAvailability() {
	t := domain.New(9)
	for v := range 9 {
		_ = t.Place(v, fmt.Sprintf("zone-%c", 'a'+v/3))
	}
	for d := range t.Len() {
		_ = t.SetP(d, big.NewRat(999, 1000))
	}
	m := availability.UniformModel(9, big.NewRat(99, 100), t)
	av, method, _ := availability.DomainAvailability(context.Background(), set.NewThreshold(9, 5), m, 0)
	e := availability.Exact{AV: av}
	fmt.Println(method, av.FloatString(10))
	fmt.Printf("%.2f nines, %.0f s down a year\n", e.Nines(), e.Downtime())
	// Output:
	// domain-tree 0.9999926173
	// 5.13 nines, 233 s down a year
}

package measure_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/measure"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// Build a system, check it is a coterie, then measure what an engineer
// chooses by: messages per entry, load and capacity, resilience.
func Example() {
	ctx := context.Background()
	pg3, _ := construct.ProjectivePlane(3) // Maekawa's N = 13, K = 4
	r, _ := verify.Verify(ctx, set.System{Family: pg3}, verify.Options{})
	fmt.Println("coterie:", r.Valid)

	m := measure.MessagesOf(pg3)
	fmt.Println("messages per entry (light demand):", m.MaekawaLight.RatString())

	l, _ := measure.LoadOf(ctx, pg3, measure.LoadOptions{})
	fmt.Printf("load %s (%s), capacity %s\n", l.Exact.RatString(), l.Method,
		new(big.Rat).Inv(l.Exact).RatString())

	res, _ := measure.ResilienceOf(ctx, pg3)
	fmt.Println("resilience:", res.F)
	// Output:
	// coterie: true
	// messages per entry (light demand): 9
	// load 4/13 (regular), capacity 13/4
	// resilience: 3
}

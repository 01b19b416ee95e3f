package availability

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/internal/testsys"
)

// The variable orders look at their context: on a cancelled one the
// candidates are not made, and a context cancelled at the third check
// stops the making there, far short of the whole.
func TestOrdersStop(t *testing.T) {
	f, err := construct.Billiard(41) // 840 nodes and quorums
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := orderCandidates(ctx, f); !errors.Is(err, context.Canceled) {
		t.Errorf("orderCandidates on a cancelled context: %v", err)
	}
	all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
	cands, err := orderCandidates(all, f)
	if err != nil || len(cands) != len(OrderCandidates(f)) {
		t.Fatalf("orderCandidates: %d orders, %v; OrderCandidates %d", len(cands), err, len(OrderCandidates(f)))
	}
	if all.Calls < 8 {
		t.Fatalf("the orders look at their context %d times; the test needs a larger family", all.Calls)
	}
	stop := &testsys.StopAfter{Context: context.Background(), Left: 2}
	if _, err := orderCandidates(stop, f); !errors.Is(err, context.Canceled) || stop.Calls > 3+2 {
		t.Errorf("cancelled at the third check: %v after %d checks (of %d)", err, stop.Calls, all.Calls)
	}
}

// The test for a product of slabs (the 4-cube of side 6, 1296 quorums of
// 1296 − 625 nodes) looks at its context: cancelled at the third check,
// Compute returns context.Canceled at once; left alone, it finds the
// product.
func TestProductStops(t *testing.T) {
	f, err := construct.Cube(6, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	all := &testsys.StopAfter{Context: context.Background(), Left: 1 << 30}
	r, err := Compute(all, f, Options{})
	if err != nil || r.Method != MethodProduct {
		t.Fatalf("the 4-cube of side 6: %v, %v", r, err)
	}
	if all.Calls < 16 {
		t.Fatalf("Compute looks at its context %d times; the test needs a larger product", all.Calls)
	}
	for _, left := range []int{2, all.Calls / 2, all.Calls - 2} {
		stop := &testsys.StopAfter{Context: context.Background(), Left: left}
		if _, err := Compute(stop, f, Options{}); !errors.Is(err, context.Canceled) || stop.Calls > left+1+2 {
			t.Errorf("cancelled at check %d: %v after %d checks (of %d)", left+1, err, stop.Calls, all.Calls)
		}
	}
}

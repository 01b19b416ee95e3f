package rw

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/internal/testsys"
)

// pathSides are the reads n1*n2 + n2*n3 + … (the m edges of a path) and
// their dual, the writes (n1 + n2)*(n2 + n3)*…, whose 2^m candidate
// quorums are mostly not minimal.
func pathSides(m int) (reads, writes *expr.Expr) {
	var edges, covers []*expr.Expr
	for i := range m {
		edges = append(edges, expr.NewAnd(expr.Node(i), expr.Node(i+1)))
		covers = append(covers, expr.NewOr(expr.Node(i), expr.Node(i+1)))
	}
	return expr.NewOr(edges...), expr.NewAnd(covers...)
}

// TestCancelStopsListing: on the 1,000-edge path, the optimal strategy
// (which lists the writes) and the intersection check, given both sides, and the system built from the reads alone
// (which lists their dual) each stop with the context's error soon after
// the context is cancelled, counted in looks at it.
func TestCancelStopsListing(t *testing.T) {
	const m, after = 1000, 200
	reads, writes := pathSides(m)
	sys, err := New(m+1, reads, writes, nil)
	if err != nil {
		t.Fatal(err)
	}
	wl, _ := ParseWorkload("1/2")
	for name, run := range map[string]func(ctx context.Context) error{
		"Optimal": func(ctx context.Context) error {
			_, _, err := sys.Optimal(ctx, Options{Workload: wl})
			return err
		},
		"ReadWrite": func(ctx context.Context) error {
			_, err := sys.ReadWrite(ctx, DefaultListLimit)
			return err
		},
		"NewContext": func(ctx context.Context) error {
			_, err := NewContext(ctx, m+1, reads, nil, nil)
			return err
		},
	} {
		ctx := &testsys.StopAfter{Context: context.Background(), Left: after}
		err := run(ctx)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", name, err)
		}
		if ctx.Calls > after+8 {
			t.Errorf("%s: %d looks at the context, %d after it was cancelled", name, ctx.Calls, ctx.Calls-after)
		}
	}
}

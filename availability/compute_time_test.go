package availability

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coterie-dev/coterie/construct"
)

// Options.Time bounds the search for an exact result: past it Compute
// settles for the proved coefficients and says why. A bound of 1ns has
// passed before the BDD starts, so the outcome does not depend on the
// machine's speed.
func TestComputeTimeLimit(t *testing.T) {
	f, err := construct.Billiard(13) // its BDD takes seconds
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compute(context.Background(), f, Options{Time: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact || r.Partial == nil || !strings.Contains(r.Reason, "no BDD within 1ns") {
		t.Fatalf("exact %v, partial %v, reason %q", r.Exact, r.Partial != nil, r.Reason)
	}
	// What is proved is still right: the smallest quorums have q nodes, so
	// A_i = 0 below 13 and A_13 counts the quorums (all distinct).
	for i := range 13 {
		if !r.Partial.Known[i] || r.Partial.A[i].Sign() != 0 {
			t.Errorf("A_%d: known %v, value %v", i, r.Partial.Known[i], r.Partial.A[i])
		}
	}
	if !r.Partial.Known[13] || r.Partial.A[13].Int64() != int64(len(f.Quorums)) {
		t.Errorf("A_13: known %v, value %v, want %d", r.Partial.Known[13], r.Partial.A[13], len(f.Quorums))
	}
}

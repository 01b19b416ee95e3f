package availability

import (
	"context"
	"strings"
	"testing"
)

// An inexact result says why in words of the library, not of a command
// line, and names the limit that stopped it in Cause; an exact one has
// neither.
func TestResultCause(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		q     int
		opts  Options
		exact bool
		cause Cause
	}{
		{3, Options{}, true, CauseNone},
		{7, Options{Method: MethodEstimate}, false, CauseAsked},
		{5, Options{Method: MethodBDD, Budget: 1000}, true, CauseNone}, // inclusion–exclusion proves it all
	} {
		r, err := Compute(ctx, projectivePlane(t, tt.q), tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Exact != tt.exact || r.Cause != tt.cause {
			t.Errorf("%+v: exact %v, cause %v; want %v, %v", tt.opts, r.Exact, r.Cause, tt.exact, tt.cause)
		}
		if strings.Contains(r.Reason, "--") || (r.Exact != (r.Reason == "")) {
			t.Errorf("%+v: reason %q", tt.opts, r.Reason)
		}
	}
}

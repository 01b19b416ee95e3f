package construct

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Refusals that are not about one parameter are *Error values: the command
// prints Msg after the file or flag, so Msg must read on its own.
func TestErrorTyped(t *testing.T) {
	fano, err := ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	two := *fano
	two.K = 2
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, parseErr := ParseDegenerateMap("best")
	_, joinErr := Join(fano, &two, 0, 0)
	_, nodeErr := Join(fano, fano, 7, 0)
	_, threshErr := Degenerate(context.Background(), set.NewThreshold(5, 3), 4, MapMin)
	_, ctxErr := Degenerate(cancelled, fano, 5, MapMin)
	for _, tt := range []struct {
		name, op, msg string
		err           error
		cause         error
	}{
		{"parse", "", `unknown map "best": use min (smallest quorums) or paper (Maekawa's x ↦ x − (N′−N))`, parseErr, nil},
		{"join k", "join", "the outer system has k = 1 but the inner one k = 2; both must be k-arbiters for the same k", joinErr, nil},
		{"join node", "join", "node 8 is not a node of the outer system (1..7)", nodeErr, nil},
		{"threshold", "degenerate", "a threshold family (all 3-subsets) has no explicit quorums to map; enumerate it first", threshErr, nil},
		{"cancelled", "degenerate", "context canceled", ctxErr, context.Canceled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ce *Error
			if !errors.As(tt.err, &ce) {
				t.Fatalf("error %v (%T) is not a *construct.Error", tt.err, tt.err)
			}
			if ce.Op != tt.op || ce.Msg != tt.msg {
				t.Errorf("Op, Msg = %q, %q; want %q, %q", ce.Op, ce.Msg, tt.op, tt.msg)
			}
			if tt.cause != nil && !errors.Is(tt.err, tt.cause) {
				t.Errorf("%v does not wrap %v", tt.err, tt.cause)
			}
		})
	}
}

// ParseDegenerateMap is the inverse of DegenerateMap.String.
func TestParseDegenerateMap(t *testing.T) {
	for _, m := range []DegenerateMap{MapMin, MapPaper} {
		if got, err := ParseDegenerateMap(m.String()); err != nil || got != m {
			t.Errorf("ParseDegenerateMap(%q) = %v, %v; want %v", m.String(), got, err, m)
		}
	}
	if _, err := ParseDegenerateMap(""); err == nil {
		t.Error(`ParseDegenerateMap("") gave no error`)
	}
}

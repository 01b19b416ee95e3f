package verify

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A check that cannot be done is an *Error whose Msg reads on its own: the
// command line prints it after the figure it is about.
func TestErrorTyped(t *testing.T) {
	f := set.NewThreshold(5, 3)
	_, err := Byzantine(context.Background(), f, -1, true)
	var ve *Error
	if !errors.As(err, &ve) || ve.Msg != "byzantine: b = -1 must be at least 0" {
		t.Errorf("b = -1: %v (%T), want an *verify.Error", err, err)
	}
}

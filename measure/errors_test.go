package measure

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// An LP over the cell limit is refused with an *Error whose Msg reads on
// its own (the command line prints it after "load: ") and which wraps
// ErrTooLarge.
func TestErrorTooLarge(t *testing.T) {
	_, err := LoadOf(context.Background(), wheel(50), LoadOptions{MaxCells: 100})
	var me *Error
	if !errors.As(err, &me) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("%v (%T): want a *measure.Error wrapping ErrTooLarge", err, err)
	}
	if want := "load of 50 quorums over 50 nodes needs a 2500-cell linear program: " + ErrTooLarge.Error(); me.Msg != want {
		t.Errorf("Msg %q, want %q", me.Msg, want)
	}
	if !strings.HasPrefix(err.Error(), "measure: ") || strings.HasPrefix(me.Msg, "measure: ") {
		t.Errorf("Error() %q, Msg %q: the package's name belongs to Error() only", err, me.Msg)
	}
}

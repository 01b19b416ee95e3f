package rw

import (
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Refused input is an *Error whose Msg reads on its own: the command line
// prints it after the flag or file it is about.
func TestErrorTyped(t *testing.T) {
	_, werr := ParseWorkload("1.5")
	s := grid(t, nil)
	_, serr := s.Evaluate(&Strategy{Reads: []Choice{{Quorum: set.Of(0, 1, 2), P: big.NewRat(-1, 1)}}}, Fixed(big.NewRat(1, 2)))
	for _, tt := range []struct {
		err     error
		op, msg string
	}{
		{werr, "", `read fraction "1.5" is not a number in [0, 1]`},
		{serr, "strategy", "negative probability -1"},
	} {
		var re *Error
		if !errors.As(tt.err, &re) || re.Op != tt.op || re.Msg != tt.msg {
			t.Errorf("%v (%T): want an *rw.Error with Op %q and Msg %q", tt.err, tt.err, tt.op, tt.msg)
		}
	}
}

package rw

import (
	"errors"
	"math/big"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// A refused workload or strategy is a typed error whose Msg reads on its own: the command line
// prints it after the flag or file it is about.
func TestErrorTyped(t *testing.T) {
	_, werr := ParseWorkload("1.5")
	s := grid(t, nil)
	_, serr := s.Evaluate(&Strategy{Reads: []Choice{{Quorum: set.Of(0, 1, 2), P: big.NewRat(-1, 1)}}}, Fixed(big.NewRat(1, 2)))
	var we *WorkloadError
	if !errors.As(werr, &we) || we.Msg != `read fraction "1.5" is not a number in [0, 1]` {
		t.Errorf("read fraction 1.5: %v (%T), want a *WorkloadError", werr, werr)
	}
	var se *StrategyError
	if !errors.As(serr, &se) || se.Msg != "negative probability -1" || serr.Error() != "rw: strategy: negative probability -1" {
		t.Errorf("negative probability: %v (%T), want a *StrategyError", serr, serr)
	}
}

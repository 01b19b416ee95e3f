package draw_test

import (
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/set"
)

// A threshold system's quorum can be shown only in the matrix layout,
// which lists the quorums; elsewhere the refusal is ErrThresholdQuorum.
func TestThresholdQuorum(t *testing.T) {
	sys := set.System{Family: set.NewThreshold(5, 3)}
	if _, err := draw.Draw(sys, draw.Options{ShowQuorum: true, Quorum: 1}); !errors.Is(err, draw.ErrThresholdQuorum) {
		t.Errorf("auto layout: %v, want ErrThresholdQuorum", err)
	}
	sc, err := draw.Draw(sys, draw.Options{Layout: "matrix", ShowQuorum: true, Quorum: 1})
	if err != nil || sc == nil {
		t.Errorf("matrix layout: %v", err)
	}
}

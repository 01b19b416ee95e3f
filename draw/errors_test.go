package draw_test

import (
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/construct"
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

// TestMaxCells: a matrix with more filled cells than MaxCells is refused
// before it is drawn; at the bound it is drawn.
func TestMaxCells(t *testing.T) {
	f, err := construct.Grid(5, 5, 25) // 25 quorums of 9 nodes: 225 cells
	if err != nil {
		t.Fatal(err)
	}
	sys := set.System{Family: f}
	if _, err := draw.Draw(sys, draw.Options{Layout: "matrix", MaxCells: 224}); !errors.Is(err, draw.ErrTooLarge) {
		t.Errorf("225 cells under a bound of 224: err = %v, want ErrTooLarge", err)
	}
	if _, err := draw.Draw(sys, draw.Options{Layout: "matrix", MaxCells: 225}); err != nil {
		t.Errorf("225 cells under a bound of 225: %v", err)
	}
}

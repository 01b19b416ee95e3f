package draw_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/set"
)

// A threshold system drawn by its rule says whether a quorum survives the
// failed nodes as the listed family does (some listed w-subset avoids
// them), and a layout that lists the quorums draws it exactly as it
// draws the same family listed.
func TestThresholdFormAgreesWithListed(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for w := 1; w <= n; w++ {
			f := set.NewThreshold(n, w)
			e, err := f.Enumerate(1 << 10)
			if err != nil {
				t.Fatal(err)
			}
			for down := 1; down <= n; down++ {
				failed := make([]int, down)
				for i := range failed {
					failed[i] = i
				}
				// The listed family: does a quorum avoid the failed nodes?
				survives := false
				for _, q := range e.All() {
					if q.Elements()[0] >= down {
						survives = true
					}
				}
				es := drawSVG(t, set.System{Family: f}, draw.Options{Down: failed})
				want := fmt.Sprintf("no quorum survives: %d of %d nodes live, %d needed", n-down, n, w)
				if survives {
					want = fmt.Sprintf("%d of %d nodes live: quorums survive (any %d)", n-down, n, w)
				}
				if !hasText(es, "legend", want) {
					t.Errorf("%d of %d, %d down: no legend %q", w, n, down, want)
				}
				o := draw.Options{Layout: "matrix", Down: failed}
				if a, b := svgBytes(t, set.System{Family: f}, o), svgBytes(t, set.System{Family: e}, o); !bytes.Equal(a, b) {
					t.Errorf("%d of %d, %d down: the matrix of the threshold form differs from the listed family's", w, n, down)
				}
			}
		}
	}
}

func svgBytes(t *testing.T, sys set.System, o draw.Options) []byte {
	t.Helper()
	sc, err := draw.Draw(sys, o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := sc.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

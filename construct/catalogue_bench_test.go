package construct

import (
	"strings"
	"testing"
)

// Generation at 10,000 nodes, where the family's size allows it: the
// wheel, the threshold Byzantine system, the M-Grid for b = 0, weighted
// voting with one heavy node, the grid protocol on 5,000×2, a two-row wall
// and the B-grid with one band. (Trees, HQC, triangles and CWlog over
// 10,000 nodes have astronomically many quorums and are refused.)
func BenchmarkCatalogue10000(b *testing.B) {
	heavy := "9998" + strings.Repeat(",1", 9999)
	for _, bc := range []struct {
		name string
		vals map[string]any
	}{
		{"wheel", map[string]any{"n": 10000}},
		{"byzantine", map[string]any{"n": 10000, "b": 2000, "masking": true}},
		{"mgrid", map[string]any{"n": 10000, "b": 0}},
		{"vote", map[string]any{"weights": heavy}},
		{"cgrid", map[string]any{"rows": 5000, "cols": 2}},
		{"wall", map[string]any{"widths": "5000,5000"}},
		{"bgrid", map[string]any{"cols": 2, "bands": 1, "band-rows": 5000}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				sys, err := build(bc.name, bc.vals)
				if err != nil {
					b.Fatal(err)
				}
				if sys.N() != 10000 {
					b.Fatalf("n = %d", sys.N())
				}
			}
		})
	}
}

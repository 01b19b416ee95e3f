package main

import (
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/format"
)

// FuzzParseAvPoints: --p (format.ParseProbs) and --range never panic, and what they accept is
// an increasing list of probabilities without repeats.
func FuzzParseAvPoints(f *testing.F) {
	for _, s := range [][2]string{{"0.9,0.99", ""}, {"", "0.5:1:0.05"}, {"0.5", "0:1:0.25"}, {"x", ""}, {"", "1:0:0.1"}, {"", "0:1:0"}, {"1.5", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, list, rng string) {
		var given []float64
		if list != "" {
			var err error
			if given, err = format.ParseProbs(list); err != nil {
				return
			}
		}
		ps, err := parseAvPoints(given, rng)
		if err != nil {
			return
		}
		for i, p := range ps {
			if !(p >= 0 && p <= 1) || (i > 0 && ps[i-1] >= p) {
				t.Fatalf("parseAvPoints(%q, %q) = %v", list, rng, ps)
			}
		}
		if !slices.IsSorted(ps) {
			t.Fatalf("unsorted: %v", ps)
		}
	})
}

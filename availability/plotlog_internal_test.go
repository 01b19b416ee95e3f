package availability

import (
	"slices"
	"testing"
)

// TestDecades: the log axis of PlotUnavailability is marked at each power
// of ten, labelled without float noise (math.Pow10(-5) prints as
// 9.999999999999999e-05 with %g -1 formatting of a computed power).
func TestDecades(t *testing.T) {
	var got []string
	for _, tk := range (decades{}).Ticks(1e-6, 1) {
		got = append(got, tk.Label)
	}
	want := []string{"1e-6", "1e-5", "1e-4", "0.001", "0.01", "0.1", "1"}
	if !slices.Equal(got, want) {
		t.Errorf("ticks %q, want %q", got, want)
	}
}

package report

import "testing"

func TestAvailabilityText(t *testing.T) {
	for av, want := range map[float64]string{
		1:           "1",
		0.999:       "0.999 (3.00 nines)",
		0.5:         "0.5 (0.30 nines)",
		1 - 1e-12:   "1 − 1e-12 (12.00 nines)",
		1 - 0x1p-52: "1 − 2e-16 (15.7 nines)",
	} {
		if got := AvailabilityText(av); got != want {
			t.Errorf("AvailabilityText(%v) = %q, want %q", av, got, want)
		}
	}
}

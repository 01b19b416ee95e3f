package rw

import "testing"

func TestParseWorkload(t *testing.T) {
	for _, tt := range []struct {
		in, want, mean string
	}{
		{"0.25", "1/4", "1/4"},
		{"1/3", "1/3", "1/3"},
		{"0.1:1,0.75:1", "1/10:1/2,3/4:1/2", "17/40"},
		{"0.1:1, 0.1:1, 1:2", "1/10:1/2,1:1/2", "11/20"},
		{"0:0,1:3", "1", "1"},
	} {
		w, err := ParseWorkload(tt.in)
		if err != nil {
			t.Errorf("ParseWorkload(%q): %v", tt.in, err)
			continue
		}
		if got := w.String(); got != tt.want {
			t.Errorf("ParseWorkload(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if got := w.Mean().RatString(); got != tt.mean {
			t.Errorf("mean of %q = %s, want %s", tt.in, got, tt.mean)
		}
		// The printed form reads back the same.
		if w2, err := ParseWorkload(w.String()); err != nil || w2.String() != w.String() {
			t.Errorf("%q printed as %s reads back as %v, %v", tt.in, w, w2, err)
		}
	}
	for _, bad := range []string{"", "1.5", "-0.1", "x", "0.1,0.2", "0.5:-1", "0.5:0", "0.5:y"} {
		if _, err := ParseWorkload(bad); err == nil {
			t.Errorf("ParseWorkload(%q) accepted", bad)
		}
	}
}

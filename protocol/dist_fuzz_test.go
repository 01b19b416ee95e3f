package protocol

import "testing"

// FuzzParseDist: parsing never panics, and what parses prints back to a
// form that parses to the same distribution.
func FuzzParseDist(f *testing.F) {
	for _, s := range []string{"const:1", "exp:2.5", "uniform:0.5:1.5", "3", "exp:", "uniform:1", "const:-1", "exp:NaN", "uniform:2:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDist(s)
		if err != nil {
			return
		}
		back, err := ParseDist(d.String())
		if err != nil {
			t.Fatalf("%q parsed as %v, whose text %q does not parse: %v", s, d, d.String(), err)
		}
		if back != d {
			t.Fatalf("%q → %v → %q → %v", s, d, d.String(), back)
		}
	})
}

// FuzzParseLoad: the same round trip for workloads.
func FuzzParseLoad(f *testing.F) {
	for _, s := range []string{"light", "heavy", "poisson:0.5", "poisson:", "poisson:-1", "poisson:1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLoad(s)
		if err != nil {
			return
		}
		back, err := ParseLoad(l.String())
		if err != nil || back != l {
			t.Fatalf("%q → %v → %q → %v, %v", s, l, l.String(), back, err)
		}
	})
}

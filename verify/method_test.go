package verify_test

import (
	"testing"

	"github.com/coterie-dev/coterie/verify"
)

// ParseMethod is the inverse of Method.String, "" is the search, and any
// other name is refused.
func TestParseMethod(t *testing.T) {
	for _, m := range []verify.Method{verify.Search, verify.Brute} {
		got, err := verify.ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v; want %v", m.String(), got, err, m)
		}
	}
	if got, err := verify.ParseMethod(""); err != nil || got != verify.Search {
		t.Errorf(`ParseMethod("") = %v, %v; want search`, got, err)
	}
	for _, s := range []string{"fast", "Search", "brute "} {
		if _, err := verify.ParseMethod(s); err == nil {
			t.Errorf("ParseMethod(%q) gave no error", s)
		}
	}
	if got, want := verify.Method(7).String(), "Method(7)"; got != want {
		t.Errorf("Method(7).String() = %q, want %q", got, want)
	}
	if got, want := verify.Method(-1).String(), "Method(-1)"; got != want {
		t.Errorf("Method(-1).String() = %q, want %q", got, want)
	}
}

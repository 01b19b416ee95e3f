package rw_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// Nondominated against brute force over all 2^6 subsets: a side is
// nondominated when every set meeting all quorums of the other side holds
// one of its quorums; a witness meets them all and holds none.
func TestNondominatedBruteForce(t *testing.T) {
	bind := func(s string) *expr.Expr {
		e, err := expr.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		e, err = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tt := range []struct{ reads, writes string }{
		{"a*b*c + d*e*f", "a*d + b*e + c*f"}, // rows and columns of the 2×3 grid
		{"a*b*c + d*e*f", "a*b*d*e"},
		{"choose(4, a, b, c, d, e, f)", "choose(3, a, b, c, d, e, f)"},
	} {
		sys, err := rw.New(6, bind(tt.reads), bind(tt.writes), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name        string
			side, other *rw.Side
		}{{"reads", &sys.Reads, &sys.Writes}, {"writes", &sys.Writes, &sys.Reads}} {
			meetsAll := func(s *set.Set) bool {
				// s meets every quorum of other iff other has no quorum
				// among the nodes outside s.
				return !c.other.IsQuorum(new(set.Set).Complement(s, 6))
			}
			want := true
			for m := range 1 << 6 {
				s := set.New(6)
				for v := range 6 {
					if m&(1<<v) != 0 {
						s.Add(v)
					}
				}
				if meetsAll(s) && !c.side.IsQuorum(s) {
					want = false
				}
			}
			ok, w, err := sys.Nondominated(context.Background(), c.side, c.other, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if ok != want {
				t.Errorf("%s / %s: %s nondominated %v, brute force %v", tt.reads, tt.writes, c.name, ok, want)
			}
			if !ok && (w == nil || !meetsAll(w) || c.side.IsQuorum(w)) {
				t.Errorf("%s / %s: %s witness %v", tt.reads, tt.writes, c.name, w)
			}
		}
	}
	sys, err := rw.New(6, bind("choose(3, a, b, c, d, e, f)"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The dual of 3-of-6 has C(6,4) = 15 minimal quorums, more than 10.
	if _, _, err := sys.Nondominated(context.Background(), &sys.Reads, &sys.Writes, 10); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("limit 10: %v", err)
	}
}

package jsonreport

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// One rule for counts in JSON: a number up to 2^53, a string above; read
// back, the same count.
func TestNumberJSON(t *testing.T) {
	two53 := new(big.Int).Lsh(big.NewInt(1), 53)
	for _, tc := range []struct {
		v    *big.Int
		want string
	}{
		{big.NewInt(10), `10`},
		{two53, `9007199254740992`},
		{new(big.Int).Add(two53, big.NewInt(1)), `"9007199254740993"`},
		{new(big.Int).Neg(new(big.Int).Add(two53, big.NewInt(1))), `"-9007199254740993"`},
	} {
		b, err := json.Marshal(Number{tc.v})
		if err != nil || string(b) != tc.want {
			t.Errorf("Number %s: %s, %v; want %s", tc.v, b, err, tc.want)
		}
		var back Number
		if err := json.Unmarshal(b, &back); err != nil || back.V.Cmp(tc.v) != 0 {
			t.Errorf("Number %s read back as %v, %v", tc.v, back.V, err)
		}
	}
	var n Number
	if err := json.Unmarshal([]byte(`"1.5"`), &n); err == nil {
		t.Errorf(`Number read "1.5" as %v`, n.V)
	}
}

// The same rule for figures: a number up to 2^53 in size, a string beyond,
// exact when the value is whole, scientific notation when it is not.
func TestRealJSON(t *testing.T) {
	two53 := new(big.Int).Lsh(big.NewInt(1), 53)
	rat := func(num *big.Int, den int64) *big.Rat { return new(big.Rat).SetFrac(num, big.NewInt(den)) }
	above := new(big.Int).Add(two53, big.NewInt(1))
	tenTo20, _ := new(big.Int).SetString("100000000000000000000", 10)
	huge := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil))
	for _, c := range []struct {
		r    *big.Rat
		want string
	}{
		{big.NewRat(7, 2), `3.5`},
		{big.NewRat(3, 2), `1.5`},
		{big.NewRat(1, 3), `0.3333333333333333`},
		{rat(two53, 1), `9007199254740992`},
		{rat(new(big.Int).Neg(two53), 1), `-9007199254740992`},
		{rat(above, 1), `"9007199254740993"`},
		{rat(new(big.Int).Neg(above), 1), `"-9007199254740993"`},
		{rat(tenTo20, 3), `"3.3333333333333333e+19"`},
		{huge, `"1` + strings.Repeat("0", 400) + `"`},
		{new(big.Rat).Quo(huge, big.NewRat(3, 1)), `"3.3333333333333333e+399"`},
	} {
		b, err := json.Marshal(Real{c.r})
		if err != nil {
			t.Fatalf("%s: %v", c.r.RatString(), err)
		}
		if string(b) != c.want {
			t.Errorf("%s: got %s, want %s", c.r.RatString(), b, c.want)
		}
		// Read back, a Real holds the value the JSON shows: a whole
		// number exactly, which it writes the same again; a value in
		// scientific notation to 17 significant digits.
		var back Real
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: read back: %v", b, err)
		}
		if strings.Contains(c.want, "e+") {
			rel := new(big.Rat).Quo(new(big.Rat).Sub(back.R, c.r), c.r)
			if f, _ := rel.Float64(); f < -1e-16 || f > 1e-16 {
				t.Errorf("%s read back %g away", b, f)
			}
			continue
		}
		if c.r.IsInt() && back.R.Cmp(c.r) != 0 {
			t.Errorf("%s read back as %s", b, back.R.RatString())
		}
		if again, _ := json.Marshal(back); string(again) != string(b) {
			t.Errorf("%s written again as %s", b, again)
		}
	}
	if got := (Real{huge}).Text(); got != "1.0000e+400" {
		t.Errorf("Real 10^400 text: %s", got)
	}
	if got := (Real{big.NewRat(24, 7)}).Text(); got != "3.4286" {
		t.Errorf("Real 24/7 text: %s", got)
	}
}

package main

import (
	"encoding/json"
	"math/big"
	"testing"
)

// TestRealJSON checks the one rule for figures in JSON: a number up to
// 2^53 in size, a string beyond, exact when the value is whole.
func TestRealJSON(t *testing.T) {
	two53 := new(big.Int).Lsh(big.NewInt(1), 53)
	rat := func(num *big.Int, den int64) *big.Rat { return new(big.Rat).SetFrac(num, big.NewInt(den)) }
	above := new(big.Int).Add(two53, big.NewInt(1))
	tenTo20, _ := new(big.Int).SetString("100000000000000000000", 10)
	for _, c := range []struct {
		r    *big.Rat
		want string
	}{
		{big.NewRat(7, 2), `3.5`},
		{big.NewRat(1, 3), `0.3333333333333333`},
		{rat(two53, 1), `9007199254740992`},
		{rat(new(big.Int).Neg(two53), 1), `-9007199254740992`},
		{rat(above, 1), `"9007199254740993"`},
		{rat(new(big.Int).Neg(above), 1), `"-9007199254740993"`},
		{rat(tenTo20, 3), `"3.3333333333333333e+19"`},
	} {
		b, err := json.Marshal(real{c.r})
		if err != nil {
			t.Fatalf("%s: %v", c.r.RatString(), err)
		}
		if string(b) != c.want {
			t.Errorf("%s: got %s, want %s", c.r.RatString(), b, c.want)
		}
	}
}

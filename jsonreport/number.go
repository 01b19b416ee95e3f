package jsonreport

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
)

// Number is an exact count: a JSON number up to 2^53 in size, which every
// JSON reader holds exactly, and a decimal string beyond.
type Number struct{ V *big.Int }

// maxExact is 2^53, the largest integer every JSON reader holds exactly.
var maxExact = new(big.Int).Lsh(big.NewInt(1), 53)

// MarshalJSON writes x as a number up to 2^53 in size, a string beyond.
func (x Number) MarshalJSON() ([]byte, error) {
	if new(big.Int).Abs(x.V).Cmp(maxExact) <= 0 {
		return []byte(x.V.String()), nil
	}
	return json.Marshal(x.V.String())
}

// UnmarshalJSON reads a number or a decimal string.
func (x *Number) UnmarshalJSON(b []byte) error {
	s := string(b)
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return fmt.Errorf("jsonreport: %s is not a whole number", b)
	}
	x.V = v
	return nil
}

// String is the decimal value.
func (x Number) String() string { return x.V.String() }

// Real is a figure computed exactly and shown as a float. In JSON it keeps
// the rule of [Number]: a JSON number up to 2^53 in size, and beyond (a
// mean degree of 5.9·10^16 or 10^308, say) a string: the exact decimal when
// the value is a whole number, otherwise scientific notation with 17
// significant digits. It is never Infinity. Read back, a Real holds the
// value the JSON shows.
type Real struct{ R *big.Rat }

// Float64 returns the value as a float64 (±Inf beyond the range).
func (x Real) Float64() float64 { v, _ := x.R.Float64(); return v }

// huge reports whether the value is beyond a float64.
func (x Real) huge() bool { return math.IsInf(x.Float64(), 0) }

// MarshalJSON writes x as [Real] says.
func (x Real) MarshalJSON() ([]byte, error) {
	if new(big.Rat).Abs(x.R).Cmp(new(big.Rat).SetInt(maxExact)) <= 0 {
		return json.Marshal(x.Float64())
	}
	if x.R.IsInt() {
		return json.Marshal(x.R.Num().String())
	}
	return json.Marshal(new(big.Float).SetPrec(128).SetRat(x.R).Text('e', 16))
}

// UnmarshalJSON reads a number, or a string in decimal or scientific
// notation.
func (x *Real) UnmarshalJSON(b []byte) error {
	s := string(b)
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return fmt.Errorf("jsonreport: %s is not a number", b)
	}
	x.R = r
	return nil
}

// Text formats the value with at most four decimals, in scientific
// notation beyond a float64.
func (x Real) Text() string {
	if x.huge() {
		return new(big.Float).SetRat(x.R).Text('e', 4)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", x.Float64()), "0"), ".")
}

// Unavailability formats 1 − AV (u) with digits significant digits.
func Unavailability(u *big.Float, digits int) string {
	if u.Sign() == 0 {
		return "0"
	}
	return u.Text('g', digits)
}

// Nines formats −log10(1 − AV) with four decimals, "" when AV = 1.
func Nines(u *big.Float) string {
	n := availability.Nines(u)
	if math.IsInf(n, 1) {
		return ""
	}
	if n == 0 {
		n = 0 // −log10(1) is −0
	}
	return strconv.FormatFloat(n, 'f', 4, 64)
}

// Downtime is the downtime per year in seconds, six significant digits.
func Downtime(u *big.Float) string {
	return strconv.FormatFloat(availability.Downtime(u), 'g', 6, 64)
}

// ninesNumber is [Nines] as a JSON number, nil when AV = 1.
func ninesNumber(u *big.Float) *json.Number {
	n := Nines(u)
	if n == "" {
		return nil
	}
	num := json.Number(n)
	return &num
}

// plus1 numbers 0-based nodes or positions from 1; nil stays nil.
func plus1(v []int) []int {
	if v == nil {
		return nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = x + 1
	}
	return out
}

// ratFloat is r as a float64.
func ratFloat(r *big.Rat) float64 { v, _ := r.Float64(); return v }

package availability

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParseMethod reads the name of a method a caller may ask [Compute] for:
// auto (or ""), bdd, brute-force (or brute) or estimate.
func ParseMethod(name string) (Method, error) {
	switch name {
	case "auto", "":
		return MethodAuto, nil
	case "bdd":
		return MethodBDD, nil
	case "brute-force", "brute":
		return MethodBrute, nil
	case "estimate":
		return MethodEstimate, nil
	}
	return MethodAuto, fmt.Errorf("must be auto, bdd or brute-force, or estimate, not %q", name)
}

// ErrRangeSyntax is the error of [ParseRange] on a range not of the form
// A:B:STEP.
var ErrRangeSyntax = errors.New("must be A:B:STEP, such as 0.5:1:0.05")

// ParseRange reads a range of probabilities "A:B:STEP": A, A+STEP, ...
// up to B, each rounded to 12 decimals so that 0.1 steps stay clean. It
// wants 0 ≤ A ≤ B ≤ 1, a positive STEP and at most a million points.
func ParseRange(rng string) ([]float64, error) {
	parts := strings.Split(rng, ":")
	if len(parts) != 3 {
		return nil, ErrRangeSyntax
	}
	var v [3]float64
	for i, s := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		v[i] = x
	}
	a, b, step := v[0], v[1], v[2]
	switch {
	case !(a >= 0 && b <= 1 && a <= b):
		return nil, errors.New("want 0 ≤ A ≤ B ≤ 1")
	case !(step > 0):
		return nil, errors.New("STEP must be positive")
	case (b-a)/step > 1e6:
		return nil, errors.New("more than a million points")
	}
	var ps []float64
	for k := 0; ; k++ {
		x := math.Round((a+float64(k)*step)*1e12) / 1e12
		if x > b+1e-12 {
			break
		}
		ps = append(ps, math.Min(x, 1))
	}
	return ps, nil
}

// Points is the points of list and of the range rng ("" for none; see
// [ParseRange]) in increasing order, without repeats.
func Points(list []float64, rng string) ([]float64, error) {
	ps := slices.Clone(list)
	if rng != "" {
		r, err := ParseRange(rng)
		if err != nil {
			return nil, err
		}
		ps = append(ps, r...)
	}
	slices.Sort(ps)
	return slices.Compact(ps), nil
}

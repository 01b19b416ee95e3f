package set

import (
	"math"
	"strconv"
	"strings"
)

// Int returns the parameter name as an int: an int or int64 a constructor
// stored, or a whole float64 (a number decoded from JSON without
// normalising). ok is false when the parameter is missing or of another
// type.
func (p Params) Int(name string) (v int, ok bool) {
	switch x := p[name].(type) {
	case int:
		return x, true
	case int64:
		if int64(int(x)) == x {
			return int(x), true
		}
	case float64:
		// Whole numbers up to 2^53 are exact in float64.
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 && int64(int(int64(x))) == int64(x) {
			return int(int64(x)), true
		}
	}
	return 0, false
}

// Ints returns the parameter name as a list of ints, stored as a string of
// comma-separated integers such as "3,2,2" (the widths of a wall, the
// weights of a vote). ok is false when the parameter is missing, empty, not
// a string, or has an element that is not an integer.
func (p Params) Ints(name string) (v []int, ok bool) {
	s, _ := p[name].(string)
	if s == "" {
		return nil, false
	}
	for x := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, false
		}
		v = append(v, n)
	}
	return v, true
}

package format

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseProbs reads a comma-separated list of probabilities, each in
// [0, 1].
func ParseProbs(s string) ([]float64, error) {
	var out []float64
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		x, err := strconv.ParseFloat(item, 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return nil, fmt.Errorf("%q is not a probability between 0 and 1", item)
		}
		out = append(out, x)
	}
	return out, nil
}

// ParseSeconds reads a time limit exactly: a duration with its unit
// (500ms, 3.5s, 2m) or a number of seconds (0.5, 7/2), not negative.
func ParseSeconds(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	if r, ok := new(big.Rat).SetString(t); ok {
		if r.Sign() < 0 {
			return nil, errors.New("a time limit cannot be negative")
		}
		return r, nil
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return nil, errors.New("want a duration such as 500ms, 3.5s or 2m, or a number of seconds")
	}
	if d < 0 {
		return nil, errors.New("a time limit cannot be negative")
	}
	return big.NewRat(int64(d), int64(time.Second)), nil
}

// ParseNodeList reads "1,4,7": node numbers 1..n or labels (labels[v] of
// node v), returned 0-based in the order given, without repeats; nil for
// an empty list.
func ParseNodeList(list string, n int, labels []string) ([]int, error) {
	var out []int
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	for tok := range strings.SplitSeq(list, ",") {
		tok = strings.TrimSpace(tok)
		v := -1
		if i, err := strconv.Atoi(tok); err == nil {
			if i < 1 || i > n {
				return nil, fmt.Errorf("node %d is out of range 1..%d", i, n)
			}
			v = i - 1
		} else if i := slices.Index(labels, tok); i >= 0 && tok != "" {
			v = i
		} else {
			return nil, fmt.Errorf("%q is neither a node number nor a label", tok)
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// ParseNodes reads a list of node numbers 1..n, separated by commas or
// spaces ("2,3,5"), into 0-based nodes without repeats; the list may not
// be empty.
func ParseNodes(s string, n int) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > n {
			return nil, fmt.Errorf("%q is not a node 1..%d", f, n)
		}
		if !slices.Contains(out, v-1) {
			out = append(out, v-1)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no nodes in %q", s)
	}
	return out, nil
}

package rw

import (
	"math/big"
	"strings"
)

// Fraction is one read fraction of a workload (the share of operations
// that are reads, in [0, 1]) with its probability.
type Fraction struct {
	Read   *big.Rat
	Weight *big.Rat
}

// Workload is a distribution of read fractions (Whittaker et al.): the
// weights are positive and sum to 1.
type Workload []Fraction

// Fixed returns the workload with the one read fraction fr.
func Fixed(fr *big.Rat) Workload {
	return Workload{{Read: new(big.Rat).Set(fr), Weight: big.NewRat(1, 1)}}
}

// ParseWorkload reads a read fraction ("0.25", "1/4") or a distribution of
// them as value:weight pairs ("0.1:1,0.75:1"); weights are normalised to
// sum to 1, zero weights dropped, and equal values merged. Numbers are read
// exactly (0.1 is 1/10).
func ParseWorkload(s string) (Workload, error) {
	var w Workload
	total := new(big.Rat)
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		val, weight, hasWeight := strings.Cut(part, ":")
		fr, ok := new(big.Rat).SetString(strings.TrimSpace(val))
		if !ok || fr.Sign() < 0 || fr.Cmp(ratOne) > 0 {
			return nil, workloadErrorf("read fraction %q is not a number in [0, 1]", val)
		}
		wt := big.NewRat(1, 1)
		if hasWeight {
			wt, ok = new(big.Rat).SetString(strings.TrimSpace(weight))
			if !ok || wt.Sign() < 0 {
				return nil, workloadErrorf("weight %q of read fraction %s is not a non-negative number", weight, val)
			}
		} else if strings.Contains(s, ",") {
			return nil, workloadErrorf("read fraction %q in a distribution needs a weight (value:weight)", part)
		}
		if wt.Sign() == 0 {
			continue
		}
		total.Add(total, wt)
		merged := false
		for i := range w {
			if w[i].Read.Cmp(fr) == 0 {
				w[i].Weight.Add(w[i].Weight, wt)
				merged = true
			}
		}
		if !merged {
			w = append(w, Fraction{Read: fr, Weight: wt})
		}
	}
	if len(w) == 0 {
		return nil, workloadErrorf("workload %q has no positive weight", s)
	}
	for i := range w {
		w[i].Weight.Quo(w[i].Weight, total)
	}
	return w, nil
}

// Mean returns the expected read fraction.
func (w Workload) Mean() *big.Rat {
	m := new(big.Rat)
	var prod big.Rat
	for _, f := range w {
		m.Add(m, prod.Mul(f.Read, f.Weight))
	}
	return m
}

// String formats w as ParseWorkload reads it: "1/4" or "1/10:1/2,3/4:1/2".
func (w Workload) String() string {
	if len(w) == 1 {
		return w[0].Read.RatString()
	}
	parts := make([]string, len(w))
	for i, f := range w {
		parts[i] = f.Read.RatString() + ":" + f.Weight.RatString()
	}
	return strings.Join(parts, ",")
}

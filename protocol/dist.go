package protocol

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// DistKind names a family of distributions.
type DistKind uint8

// The distributions a [Dist] may be.
const (
	Const       DistKind = iota // always A
	Exponential                 // exponential with mean A
	Uniform                     // uniform on [A, B]
)

// Dist is a distribution of non-negative durations: message delays and
// critical-section lengths. Its text form is "const:X", "exp:MEAN" or
// "uniform:A:B" (a bare number means const).
type Dist struct {
	Kind DistKind
	A, B float64
}

// ParseDist parses the text form of a Dist.
func ParseDist(s string) (Dist, error) {
	name, rest, _ := strings.Cut(s, ":")
	nums := []float64{}
	if rest != "" {
		for _, f := range strings.Split(rest, ":") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v < 0 || v != v || v > 1e12 {
				return Dist{}, errorf("distribution %q: %q is not a number in 0..1e12", s, f)
			}
			nums = append(nums, v)
		}
	}
	var d Dist
	switch name {
	case "const":
		d.Kind = Const
	case "exp":
		d.Kind = Exponential
	case "uniform":
		d.Kind = Uniform
	default:
		if v, err := strconv.ParseFloat(s, 64); err == nil && v >= 0 && v <= 1e12 {
			return Dist{Kind: Const, A: v}, nil
		}
		return Dist{}, errorf("distribution %q: want const:X, exp:MEAN or uniform:A:B", s)
	}
	want := 1
	if d.Kind == Uniform {
		want = 2
	}
	if len(nums) != want {
		return Dist{}, errorf("distribution %q: %s takes %d number(s)", s, name, want)
	}
	d.A = nums[0]
	if d.Kind == Uniform {
		d.B = nums[1]
		if d.B < d.A {
			return Dist{}, errorf("distribution %q: the bounds are reversed", s)
		}
	}
	return d, nil
}

// String returns the text form of d.
func (d Dist) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch d.Kind {
	case Exponential:
		return "exp:" + f(d.A)
	case Uniform:
		return "uniform:" + f(d.A) + ":" + f(d.B)
	default:
		return "const:" + f(d.A)
	}
}

// Mean returns the mean of d.
func (d Dist) Mean() float64 {
	if d.Kind == Uniform {
		return (d.A + d.B) / 2
	}
	return d.A
}

func (d Dist) draw(r *rand.Rand) float64 {
	switch d.Kind {
	case Exponential:
		return r.ExpFloat64() * d.A
	case Uniform:
		return d.A + r.Float64()*(d.B-d.A)
	default:
		return d.A
	}
}

// LoadKind names a workload.
type LoadKind uint8

// The workloads of the simulator; see the package documentation.
const (
	Light LoadKind = iota
	Heavy
	Poisson
)

// Load is a workload: Light, Heavy, or Poisson with Rate requests per node
// per unit of time — the unit the delay and critical-section distributions
// are given in, so per mean message delay with the default exp:1. Its text
// form is "light", "heavy" or "poisson:RATE".
type Load struct {
	Kind LoadKind
	Rate float64
}

// ParseLoad parses the text form of a Load.
func ParseLoad(s string) (Load, error) {
	switch s {
	case "light":
		return Load{Kind: Light}, nil
	case "heavy":
		return Load{Kind: Heavy}, nil
	}
	if r, ok := strings.CutPrefix(s, "poisson:"); ok {
		v, err := strconv.ParseFloat(r, 64)
		if err != nil || !(v > 0) || v > 1e9 {
			return Load{}, errorf("load %q: the rate must be a positive number", s)
		}
		return Load{Kind: Poisson, Rate: v}, nil
	}
	return Load{}, errorf("load %q: want light, heavy or poisson:RATE", s)
}

// String returns the text form of l.
func (l Load) String() string {
	switch l.Kind {
	case Heavy:
		return "heavy"
	case Poisson:
		return "poisson:" + strconv.FormatFloat(l.Rate, 'g', -1, 64)
	default:
		return "light"
	}
}

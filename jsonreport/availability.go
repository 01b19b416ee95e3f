package jsonreport

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
)

// AvailabilityFamily is the report of `coterie availability --json` on one
// family (a coterie or k-arbiter, or one level of an (h,k)-arbiter), as
// docs/formats.md shows it; method and reason appear only when the result
// is not exact. File names the input when several are compared.
type AvailabilityFamily struct {
	File         string              `json:"file,omitempty"`
	H            int                 `json:"h,omitempty"`
	N            int                 `json:"n"`
	Exact        bool                `json:"exact"`
	Method       string              `json:"method,omitempty"`
	Reason       string              `json:"reason,omitempty"`
	Coefficients []*string           `json:"coefficients"`
	PNode        map[string]float64  `json:"p_node,omitempty"`
	Points       []AvailabilityPoint `json:"points,omitempty"`
}

// AvailabilityPoint is one point of an [AvailabilityFamily]; the estimate
// fields appear only for estimates.
type AvailabilityPoint struct {
	P            json.Number `json:"p"`
	Availability json.Number `json:"availability"`
	// Unavailability is 1 − AV, nines −log10(1 − AV) (null when AV = 1)
	// and downtime_per_year (1 − AV)·365.25 days in seconds.
	Unavailability  json.Number  `json:"unavailability"`
	Nines           *json.Number `json:"nines"`
	DowntimePerYear json.Number  `json:"downtime_per_year"`
	Estimate        bool         `json:"estimate,omitempty"`
	CI              *[2]float64  `json:"ci,omitempty"`
	Bounds          *[2]float64  `json:"bounds,omitempty"`
	Samples         int          `json:"samples,omitempty"`
	Seed            *uint64      `json:"seed,omitempty"`
}

// AvailabilityHK is the report of `coterie availability --json` on an
// (h,k)-arbiter: one [AvailabilityFamily] per level.
type AvailabilityHK struct {
	File   string               `json:"file,omitempty"`
	N      int                  `json:"n"`
	K      int                  `json:"k"`
	Levels []AvailabilityFamily `json:"levels"`
}

// AvailabilitySystem is one system's availability as computed: the
// result and points of each family.
type AvailabilitySystem struct {
	// Name names the input; it is in the report when there are several.
	Name string
	N, K int
	// HK says the families are the levels of an (h,k)-arbiter.
	HK bool
	// Override are the nodes (0-based) with their own probability.
	Override map[int]float64
	Families []AvailabilityResult
}

// AvailabilityResult is one family's result and its points.
type AvailabilityResult struct {
	H      int
	Result *availability.Result
	Points []availability.Point
	// Reason says, when the result is not exact, why (worded for the
	// reader of the report, e.g. with the options that would change it).
	Reason string
}

// Coefficients returns the decimal coefficients A_0..A_n of r, nil where
// not proved.
func Coefficients(r *availability.Result) []*string {
	out := make([]*string, r.N+1)
	if r.Exact {
		for i, s := range r.Poly.Strings() {
			out[i] = &s
		}
		return out
	}
	for i, k := range r.Partial.Known {
		if k {
			s := r.Partial.A[i].String()
			out[i] = &s
		}
	}
	return out
}

// FormatAV formats AV at pt with digits significant digits, but never
// rounds a value below 1 to "1": 0.99999999998 keeps its nines (from
// 1 − u, with three significant digits of u, u being 1 − AV).
func FormatAV(pt availability.Point, u *big.Float, digits int) string {
	s := strconv.FormatFloat(pt.AV, 'g', digits, 64)
	if !pt.Exact || u.Sign() == 0 || (s != "1" && !strings.HasPrefix(s, "0.9999")) {
		return s
	}
	decimals := int(math.Floor(availability.Nines(u))) + 3
	if decimals <= digits {
		return s
	}
	if decimals > 60 {
		return s // far beyond what a decimal shows; 1 − AV says it
	}
	one := new(big.Float).SetPrec(u.Prec()).SetInt64(1)
	t := one.Sub(one, u).Text('f', decimals)
	t = strings.TrimRight(t, "0")
	return strings.TrimSuffix(t, ".")
}

// FromAvailability is the report on the systems, values with digits
// significant digits, with the points or (withPoints false) only the
// coefficients: for one system an [AvailabilityFamily] or, for an
// (h,k)-arbiter, an [AvailabilityHK]; for several a list of them, each
// with its file.
func FromAvailability(systems []AvailabilitySystem, digits int, withPoints bool) any {
	many := len(systems) > 1
	var out []any
	for _, in := range systems {
		var fams []AvailabilityFamily
		uniform := len(in.Override) == 0
		for _, f := range in.Families {
			jf := AvailabilityFamily{H: f.H, N: in.N, Exact: f.Result.Exact, Coefficients: Coefficients(f.Result)}
			if !f.Result.Exact {
				jf.Method, jf.Reason = string(availability.MethodEstimate), f.Reason
			}
			if withPoints {
				jf.Points = []AvailabilityPoint{}
				for _, pt := range f.Points {
					u := f.Result.Unavailability(pt, uniform)
					jp := AvailabilityPoint{P: json.Number(strconv.FormatFloat(pt.P, 'g', -1, 64)), Availability: json.Number(FormatAV(pt, u, digits)),
						Unavailability: json.Number(Unavailability(u, digits)), DowntimePerYear: json.Number(Downtime(u)), Nines: ninesNumber(u)}
					if !pt.Exact {
						e := pt.Estimate
						jp.Estimate = true
						jp.CI = &[2]float64{e.Lo, e.Hi}
						jp.Bounds = &[2]float64{pt.Lo, pt.Hi}
						jp.Samples = e.Samples
						seed := e.Seed
						jp.Seed = &seed
					}
					jf.Points = append(jf.Points, jp)
				}
			}
			fams = append(fams, jf)
		}
		if in.Override != nil {
			ov := map[string]float64{}
			for v, x := range in.Override {
				ov[strconv.Itoa(v+1)] = x
			}
			for i := range fams {
				fams[i].PNode = ov
			}
		}
		if in.HK {
			h := AvailabilityHK{N: in.N, K: in.K, Levels: fams}
			if many {
				h.File = in.Name
			}
			out = append(out, h)
			continue
		}
		if many {
			fams[0].File = in.Name
		}
		out = append(out, fams[0])
	}
	if !many {
		return out[0]
	}
	return out
}

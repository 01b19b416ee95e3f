package main

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/report"
)

// avUnavailability returns 1 − AV at pt: from the exact polynomial when
// the point is exact and uniform (no --p-node), otherwise 1 − the value
// (per-node probabilities and estimates are float64 to begin with).
func avUnavailability(in *avInput, f avFamily, pt availability.Point) *big.Float {
	if pt.Exact && len(in.override) == 0 && f.res.Exact {
		return f.res.Poly.Unavailability(pt.P)
	}
	return big.NewFloat(math.Max(0, 1-pt.AV))
}

// avMark marks a value derived from an estimate.
func avMark(pt availability.Point) string {
	if pt.Exact {
		return ""
	}
	return "≈"
}

// avShow formats AV with --digits significant digits, but never rounds a
// value below 1 to "1": 0.99999999998 keeps its nines (from 1 − u, with
// three significant digits of u).
func avShow(pt availability.Point, u *big.Float, digits int) string {
	s := avNum(pt.AV, digits)
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

// u2s formats 1 − AV with digits significant digits.
func u2s(u *big.Float, digits int) string {
	if u.Sign() == 0 {
		return "0"
	}
	return u.Text('g', digits)
}

// ninesNumber formats −log10(1 − AV) with four decimals, "" when AV = 1.
func ninesNumber(u *big.Float) string {
	n := availability.Nines(u)
	if math.IsInf(n, 1) {
		return ""
	}
	if n == 0 {
		n = 0 // −log10(1) is −0
	}
	return strconv.FormatFloat(n, 'f', 4, 64)
}

// ninesText is ninesNumber for a table: "∞" when AV = 1.
func ninesText(u *big.Float) string {
	if s := ninesNumber(u); s != "" {
		return s
	}
	return "∞"
}

// downtimeNumber is the downtime per year in seconds, six significant
// digits.
func downtimeNumber(u *big.Float) string {
	return strconv.FormatFloat(availability.Downtime(u), 'g', 6, 64)
}

// downtimeText formats seconds of downtime a year: "8.77 h", "31.6 ms".
func downtimeText(sec float64) string { return report.Seconds(sec) }

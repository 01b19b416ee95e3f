package main

import (
	"math/big"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/report"
)

// avUnavailability returns 1 − AV at pt (see [availability.Result.Unavailability]):
// from the exact polynomial unless some node has its own probability.
func avUnavailability(in *avInput, f avFamily, pt availability.Point) *big.Float {
	return f.res.Unavailability(pt, len(in.override) == 0)
}

// avMark marks a value derived from an estimate.
func avMark(pt availability.Point) string {
	if pt.Exact {
		return ""
	}
	return "≈"
}

// The figures as the JSON reports write them: AV that never rounds a value
// below 1 to "1", 1 − AV with some significant digits, −log10(1 − AV)
// with four decimals ("" when AV = 1), the downtime per year in seconds.
var (
	avShow         = jsonreport.FormatAV
	u2s            = jsonreport.Unavailability
	ninesNumber    = jsonreport.Nines
	downtimeNumber = jsonreport.Downtime
)

// ninesText is ninesNumber for a table: "∞" when AV = 1.
func ninesText(u *big.Float) string {
	if s := ninesNumber(u); s != "" {
		return s
	}
	return "∞"
}

// downtimeText formats seconds of downtime a year: "8.77 h", "31.6 ms".
func downtimeText(sec float64) string { return report.Seconds(sec) }

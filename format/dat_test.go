package format

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestScanDatLineAgreesWithScanIDs checks the quick reading of a .dat line
// against the general one: on every line it takes, the same ids or the
// same error; the lines it leaves go to scanIDs anyway. The lines mix ids
// (with leading zeros, out of range, repeated), every separator, signs,
// letters, other white space and comments.
func TestScanDatLineAgreesWithScanIDs(t *testing.T) {
	pieces := []string{"1", "2", "7", "10", "007", "0", "16777216", "16777217", "99999999999", "3",
		" ", "  ", "\t", ",", "\v", "\f", "\r", "\u00a0", "#", "# 4 5", "-1", "+2", "x", "5a", "é", "1e3"}
	r := rand.New(rand.NewPCG(3, 4))
	taken, left := 0, 0
	var fast, slow quorumBuilder
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		line := b.String()
		for _, base := range []int{0, 1} {
			fast.reset()
			slow.reset()
			ok, ferr := scanDatLine([]byte(line), 9, base, &fast)
			if !ok && ferr == nil {
				left++
				continue
			}
			taken++
			content, _, _ := strings.Cut(line, "#")
			serr := scanIDs(content, 9, base, &slow)
			switch {
			case (ferr == nil) != (serr == nil):
				t.Fatalf("%q base %d: quick error %v, general error %v", line, base, ferr, serr)
			case ferr != nil && ferr.Error() != serr.Error():
				t.Fatalf("%q base %d: quick error %q, general error %q", line, base, ferr, serr)
			case ferr == nil && !slices.Equal(fast.ids, slow.ids):
				t.Fatalf("%q base %d: quick ids %v, general ids %v", line, base, fast.ids, slow.ids)
			case ferr == nil && len(fast.ids) == 0 && strings.TrimSpace(content) != "":
				t.Fatalf("%q base %d: no ids from a line with content", line, base)
			}
		}
	}
	if taken < 1000 || left < 1000 {
		t.Fatalf("quick path took %d lines and left %d: the test does not reach both", taken, left)
	}
}

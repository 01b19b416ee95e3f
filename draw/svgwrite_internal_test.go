package draw

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// TestAppendNum checks the allocation-free formatter against the
// definition by strings: two decimals, no trailing zeros, no "-0".
func TestAppendNum(t *testing.T) {
	ref := func(x float64) string {
		s := strconv.FormatFloat(x, 'f', 2, 64)
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
		if s == "-0" {
			s = "0"
		}
		return s
	}
	xs := []float64{0, math.Copysign(0, -1), -0.001, -0.004, -0.005, -0.006, 0.005, 0.995, 1, 10, 100, 1000.5,
		-1, -10.1, 1e21, -1e-9, 12345.678, 0.1, 0.01, 0.001, math.Inf(1), math.Inf(-1), math.NaN()}
	for i := -3000; i <= 3000; i++ {
		xs = append(xs, float64(i)/7, float64(i)*0.01, float64(i)*1.5e3)
		// Ties (odd multiples of 1/8 are exact halves of a cent) and the
		// floats on either side of every half cent.
		h := (float64(i) + 0.5) / 100
		xs = append(xs, float64(i)/8, h, math.Nextafter(h, math.Inf(1)), math.Nextafter(h, math.Inf(-1)))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		scale := math.Pow(10, float64(rng.IntN(30)-12))
		x := (rng.Float64() - 0.5) * scale
		xs = append(xs, x, math.Round(x*800)/800, 1e12-x, -1e12+x)
	}
	for _, x := range xs {
		if got, want := string(appendNum([]byte("p"), x)), "p"+ref(x); got != want {
			t.Errorf("appendNum(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestAppendEscaped checks the fast path against escape on plain,
// special, control and non-UTF-8 text.
func TestAppendEscaped(t *testing.T) {
	for _, s := range []string{"", "plain 12 {1 2 3}", "a&b", "<x>", `q"1`, "x'1", "tab\there", "nl\nx", "bell\a",
		"nœud", "\xff\xfe", "zone-a/rack-1", "… 17 in all"} {
		if got, want := string(appendEscaped([]byte("p"), s)), "p"+escape(s); got != want {
			t.Errorf("appendEscaped(%q) = %q, want %q", s, got, want)
		}
	}
	for r := rune(0); r < 0x300; r++ {
		s := fmt.Sprintf("a%cb", r)
		if got, want := string(appendEscaped(nil, s)), escape(s); got != want {
			t.Errorf("appendEscaped(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestShortNodes checks the tooltips' node lists against a plain fmt
// formatting: every node up to 40, then "… n in all".
func TestShortNodes(t *testing.T) {
	ref := func(vs []int, max int) string {
		var parts []string
		for i, v := range vs {
			if i == max {
				parts = append(parts, fmt.Sprintf("… %d in all", len(vs)))
				break
			}
			parts = append(parts, fmt.Sprint(v+1))
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	for _, n := range []int{0, 1, 2, 39, 40, 41, 42, 130} {
		s := set.New(3 * n)
		var vs []int
		for v := 0; v < n; v++ {
			s.Add(3*v + v%2)
			vs = append(vs, 3*v+v%2)
		}
		want := ref(vs, 40)
		if got := shortNodes(vs, 40); got != want {
			t.Errorf("shortNodes(%d nodes) = %q, want %q", n, got, want)
		}
		if got := lineTip("line ", 6, s); got != "line 7: "+want {
			t.Errorf("lineTip(%d nodes) = %q, want %q", n, got, "line 7: "+want)
		}
	}
}

// TestParseColor checks the hexadecimal fast path against fmt.Sscanf,
// errors included.
func TestParseColor(t *testing.T) {
	ref := func(s string) (color.Color, error) {
		var r, g, b uint8
		if len(s) != 7 || s[0] != '#' {
			return nil, fmt.Errorf("draw: colour %q: want #rrggbb", s)
		}
		if _, err := fmt.Sscanf(s[1:], "%02x%02x%02x", &r, &g, &b); err != nil {
			return nil, fmt.Errorf("draw: colour %q: %w", s, err)
		}
		return color.NRGBA{R: r, G: g, B: b, A: 255}, nil
	}
	cs := []string{"#000000", "#ffffff", "#FFFFFF", "#1f77b4", "#D62728", "#aBcDeF", "none", "", "#12345", "#1234567",
		"#12345g", "#-12345", "#+12345", "# 12345", "#0x1234", "123456", "#ééé"}
	for i := range 4096 {
		cs = append(cs, fmt.Sprintf("#%02x%02X%02x", i%256, (i*7)%256, (i*13)%256))
	}
	for _, s := range cs {
		got, gerr := parseColor(s)
		want, werr := ref(s)
		if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("parseColor(%q) = %v, %v; want %v, %v", s, got, gerr, want, werr)
		}
	}
}

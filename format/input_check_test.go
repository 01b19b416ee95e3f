package format_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/format"
)

// A .dat input with one bad byte anywhere (a control character, 0x7f, a
// byte that is not UTF-8) is refused at the line that holds it, whether the
// byte falls inside a run of plain text read eight bytes at a time or not;
// good multi-byte UTF-8 in a comment is accepted.
func TestCheckBytesAnywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	for i := range 40 {
		for k := range 20 + i%7 {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(1 + k + 30*rng.IntN(3)))
		}
		if i%9 == 4 {
			b.WriteString(" # é → ü")
		}
		b.WriteByte('\n')
	}
	good := b.String()
	if _, err := format.ReadBytes([]byte(good), format.Dat, format.Options{Base: 1}); err != nil {
		t.Fatalf("good input: %v", err)
	}
	for trial := range 300 {
		at := rng.IntN(len(good))
		for good[at] >= 0x80 || at > 0 && good[at-1] >= 0x80 { // not inside a UTF-8 sequence
			at = rng.IntN(len(good))
		}
		bad := []byte{0x01, 0x1f, 0x7f, 0x80, 0xff, 0x00, 0x08}[trial%7]
		in := []byte(good)
		in[at] = bad
		want := 1 + strings.Count(good[:at], "\n")
		_, err := format.ReadBytes(in, format.Dat, format.Options{Base: 1})
		if err == nil {
			t.Fatalf("byte %#x at %d: accepted", bad, at)
		}
		var se *format.SyntaxError
		if !errors.As(err, &se) || se.Line != want {
			t.Fatalf("byte %#x at %d: %v, want line %d", bad, at, err, want)
		}
	}
}

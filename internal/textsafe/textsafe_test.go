package textsafe

import (
	"bytes"
	"testing"
)

func TestTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"plain é":          "plain é",
		"a\x1b[31mb":       `a\x1b[31mb`,
		"line\nnext\ttab":  "line\nnext\ttab",
		"cr\rbell\a\x7f":   `cr\x0dbell\x07\x7f`,
		"c1\u009b31m":      `c1\u009b31m`,
		"rtl\u202eevil":    `rtl\u202eevil`,
		"bad\xffbyte":      `bad\xffbyte`,
		`back\slash stays`: `back\slash stays`,
	} {
		if got := Terminal(in); got != want {
			t.Errorf("Terminal(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Field("a\nb\tc"); got != `a\x0ab\x09c` {
		t.Errorf("Field = %q", got)
	}
}

// Writer holds back a character split between writes.
func TestWriterSplitRune(t *testing.T) {
	var b bytes.Buffer
	w := &Writer{W: &b}
	in := []byte("é€\x1b")
	for i := range in {
		w.Write(in[i : i+1])
	}
	w.Flush()
	if b.String() != `é€\x1b` {
		t.Errorf("got %q", b.String())
	}
}

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+x": "'+x", "-x": "'-x", "@a": "'@a", "\tx": "'\tx", "\rx": "'\rx",
		"-1": "-1", "-0.5": "-0.5", "+3e5": "+3e5", "-Inf": "-Inf", "-0x1p3": "'-0x1p3",
		"a=b": "a=b", "": "", "plain": "plain",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

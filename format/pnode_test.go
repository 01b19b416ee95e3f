package format

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestParsePNode(t *testing.T) {
	labels := []string{"a", "b", "c"}
	got, err := ParsePNode("1=0.9, c = 0.5", 3, labels)
	if want := map[int]float64{0: 0.9, 2: 0.5}; err != nil || !maps.Equal(got, want) {
		t.Errorf("ParsePNode = %v, %v; want %v", got, err, want)
	}
	for _, tt := range []struct{ spec, msg string }{
		{"1=0.9,2", `"2" is not NODE=P`},
		{"4=0.5", "node 4 is out of range 1..3"},
		{"d=0.5", `"d" is neither a node number 1..3 nor a label`},
		{"a=1.5", `"1.5" is not a probability between 0 and 1`},
		{"a=0.5,1=0.6", "node 1 is given twice"},
	} {
		if _, err := ParsePNode(tt.spec, 3, labels); err == nil || err.Error() != tt.msg {
			t.Errorf("ParsePNode(%q) = %v, want %q", tt.spec, err, tt.msg)
		}
	}
}

func TestReadPNode(t *testing.T) {
	got, err := ReadPNode([]byte("# per-node\n1 0.9\n\nb,0.8 # zone b\nc=0.7\n"), 3, []string{"a", "b", "c"})
	if want := map[int]float64{0: 0.9, 1: 0.8, 2: 0.7}; err != nil || !maps.Equal(got, want) {
		t.Errorf("ReadPNode = %v, %v; want %v", got, err, want)
	}
	_, err = ReadPNode([]byte("1 0.9\n2 0.8 0.7\n"), 3, nil)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || !strings.Contains(se.Msg, "want NODE PROBABILITY") {
		t.Errorf("three fields on line 2: %v", err)
	}
	_, err = ReadPNode([]byte("1 0.9\n\n1 0.8\n"), 3, nil)
	if !errors.As(err, &se) || se.Line != 3 || se.Msg != "node 1 is given twice" {
		t.Errorf("node 1 twice: %v", err)
	}
}

package set

import (
	"slices"
	"testing"
)

func TestParamsInt(t *testing.T) {
	p := Params{"a": 3, "b": int64(-4), "c": 5.0, "d": 5.5, "e": "6", "f": true}
	for _, tt := range []struct {
		name string
		v    int
		ok   bool
	}{{"a", 3, true}, {"b", -4, true}, {"c", 5, true}, {"d", 0, false}, {"e", 0, false}, {"f", 0, false}, {"g", 0, false}} {
		if v, ok := p.Int(tt.name); v != tt.v || ok != tt.ok {
			t.Errorf("Int(%q) = %d, %v; want %d, %v", tt.name, v, ok, tt.v, tt.ok)
		}
	}
	if v, ok := Params(nil).Int("a"); v != 0 || ok {
		t.Errorf("nil Params: Int = %d, %v", v, ok)
	}
}

func TestParamsInts(t *testing.T) {
	p := Params{"w": "3, 2,0,-1", "one": "7", "bad": "1,x", "empty": "", "num": 4, "trail": "1,"}
	for _, tt := range []struct {
		name string
		v    []int
		ok   bool
	}{{"w", []int{3, 2, 0, -1}, true}, {"one", []int{7}, true}, {"bad", nil, false},
		{"empty", nil, false}, {"num", nil, false}, {"trail", nil, false}, {"none", nil, false}} {
		if v, ok := p.Ints(tt.name); !slices.Equal(v, tt.v) || ok != tt.ok {
			t.Errorf("Ints(%q) = %v, %v; want %v, %v", tt.name, v, ok, tt.v, tt.ok)
		}
	}
}

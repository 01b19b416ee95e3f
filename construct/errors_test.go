package construct

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Refusals that are not about one parameter are *Error values: the command
// prints Msg after the file or flag, so Msg must read on its own.
func TestErrorTyped(t *testing.T) {
	fano, err := ProjectivePlane(2)
	if err != nil {
		t.Fatal(err)
	}
	two := *fano
	two.K = 2
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, parseErr := ParseDegenerateMap("best")
	_, joinErr := Join(fano, &two, 0, 0)
	_, nodeErr := Join(fano, fano, 7, 0)
	_, threshErr := Degenerate(context.Background(), set.NewThreshold(5, 3), 4, MapMin)
	_, ctxErr := Degenerate(cancelled, fano, 5, MapMin)
	for _, tt := range []struct {
		name, op, msg string
		err           error
		cause         error
	}{
		{"parse", "", `unknown map "best": use min (smallest quorums) or paper (Maekawa's x ↦ x − (N′−N))`, parseErr, nil},
		{"join k", "join", "the outer system has k = 1 but the inner one k = 2; both must be k-arbiters for the same k", joinErr, nil},
		{"join node", "join", "node 8 is not a node of the outer system (1..7)", nodeErr, nil},
		{"threshold", "degenerate", "a threshold family (all 3-subsets) has no explicit quorums to map; enumerate it first", threshErr, nil},
		{"cancelled", "degenerate", "context canceled", ctxErr, context.Canceled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ce *Error
			if !errors.As(tt.err, &ce) {
				t.Fatalf("error %v (%T) is not a *construct.Error", tt.err, tt.err)
			}
			if ce.Op != tt.op || ce.Msg != tt.msg {
				t.Errorf("Op, Msg = %q, %q; want %q, %q", ce.Op, ce.Msg, tt.op, tt.msg)
			}
			if tt.cause != nil && !errors.Is(tt.err, tt.cause) {
				t.Errorf("%v does not wrap %v", tt.err, tt.cause)
			}
		})
	}
}

// ParseDegenerateMap is the inverse of DegenerateMap.String.
func TestParseDegenerateMap(t *testing.T) {
	for _, m := range []DegenerateMap{MapMin, MapPaper} {
		if got, err := ParseDegenerateMap(m.String()); err != nil || got != m {
			t.Errorf("ParseDegenerateMap(%q) = %v, %v; want %v", m.String(), got, err, m)
		}
	}
	if _, err := ParseDegenerateMap(""); err == nil {
		t.Error(`ParseDegenerateMap("") gave no error`)
	}
}

// Parameters given in a combination a construction does not take are a
// *ComboError, which names them as the caller asks (flags, for the command
// line); a bad list is a *ParamError of its parameter.
func TestComboError(t *testing.T) {
	flag := func(p string) string { return "--" + p }
	for _, tt := range []struct {
		kind  string
		vals  map[string]any
		plain string
		flags string
	}{
		{"wall", map[string]any{}, "give exactly one of widths and cwlog n", "give exactly one of --widths and --cwlog --n"},
		{"wall", map[string]any{"widths": "1,2", "cwlog": true}, "give exactly one of widths and cwlog n", "give exactly one of --widths and --cwlog --n"},
		{"wall", map[string]any{"widths": "1,2", "cwlog": true, "n": 3}, "give exactly one of widths and cwlog n", "give exactly one of --widths and --cwlog --n"},
		{"wall", map[string]any{"cwlog": true}, "cwlog needs n", "--cwlog needs --n"},
		{"wall", map[string]any{"n": 9}, "n needs cwlog", "--n needs --cwlog"},
		{"byzantine", map[string]any{"n": 9, "b": 1}, "give exactly one of masking and dissemination", "give exactly one of --masking and --dissemination"},
		{"byzantine", map[string]any{"n": 9, "b": 1, "masking": true, "dissemination": true}, "give exactly one of masking and dissemination", "give exactly one of --masking and --dissemination"},
		{"byzantine", map[string]any{"n": 9, "b": 1, "masking": false}, "give exactly one of masking and dissemination", "give exactly one of --masking and --dissemination"},
	} {
		_, err := build(tt.kind, tt.vals)
		var ce *ComboError
		if !errors.As(err, &ce) {
			t.Errorf("%s %v: %v (%T), want a *ComboError", tt.kind, tt.vals, err, err)
			continue
		}
		if got := ce.Describe(flag); got != tt.flags {
			t.Errorf("%s %v: Describe = %q, want %q", tt.kind, tt.vals, got, tt.flags)
		}
		if want := "construct: " + tt.kind + ": " + tt.plain; err.Error() != want {
			t.Errorf("%s %v: %q, want %q", tt.kind, tt.vals, err, want)
		}
	}
	for _, ok := range []map[string]any{{"widths": "1,2,3"}, {"cwlog": true, "n": 9}, {"widths": "1,2", "cwlog": false}} {
		if _, err := build("wall", ok); err != nil {
			t.Errorf("wall %v: %v", ok, err)
		}
	}
	for _, tt := range []struct{ list, reason string }{
		{"2,x", `has "x", not an integer`},
		{"0,1", "has 0, below 1"},
		{" ", "is an empty list"},
	} {
		_, err := build("wall", map[string]any{"widths": tt.list})
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != "widths" || pe.Reason != tt.reason {
			t.Errorf("widths %q: %v, want a *ParamError of widths that %s", tt.list, err, tt.reason)
		}
	}
}

// Describe drops the package's prefix, and the operation when the caller
// names it, and calls the parameters as the caller asks.
func TestDescribe(t *testing.T) {
	flag := func(p string) string { return "--" + p }
	pe := &ParamError{Kind: "fpp", Param: "q", Value: 6, Reason: "is not a prime power"}
	miss := &ParamError{Kind: "grid", Param: "rows", Reason: "is missing"}
	ce := &Error{Op: "join", Msg: "the outer system has no node 9"}
	combo := &ComboError{Kind: "wall", Given: []string{"cwlog"}, Want: [][]string{{"widths"}, {"cwlog", "n"}}}
	for _, tt := range []struct {
		err  error
		op   string
		name func(string) string
		want string
	}{
		{pe, "", nil, "fpp: q = 6 is not a prime power"},
		{pe, "fpp", flag, "--q = 6 is not a prime power"},
		{fmt.Errorf("reading: %w", pe), "fpp", nil, "q = 6 is not a prime power"},
		{miss, "", flag, "grid: --rows is missing"},
		{ce, "join", nil, "the outer system has no node 9"},
		{ce, "degenerate", nil, "join: the outer system has no node 9"},
		{combo, "wall", flag, "--cwlog needs --n"},
		{errors.New("other"), "", nil, "other"},
	} {
		if got := Describe(tt.err, tt.op, tt.name); got != tt.want {
			t.Errorf("Describe(%v, %q) = %q, want %q", tt.err, tt.op, got, tt.want)
		}
	}
	if got, want := pe.Message(), "fpp: q = 6 is not a prime power"; got != want {
		t.Errorf("Message() = %q, want %q", got, want)
	}
}

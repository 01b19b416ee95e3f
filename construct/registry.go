package construct

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// ParamType is the type of a construction parameter.
type ParamType int

// The parameter types a Spec may declare.
const (
	Int ParamType = iota
	Bool
	String
)

// Param describes one parameter of a construction: the command line turns it
// into a flag --Name.
type Param struct {
	Name  string
	Usage string
	Type  ParamType
	// Default is the value when the flag is not given: an int, bool or
	// string matching Type. It is ignored when Required is set.
	Default  any
	Required bool
	// Min and Max bound an Int parameter (inclusive); Max = 0 means no
	// upper bound. Values outside are refused before Build runs.
	Min, Max int
}

// Args are the parameter values a Spec's Build receives: every declared
// parameter has a value (given or default), and IsSet tells which were given.
type Args struct {
	vals  map[string]any
	given map[string]bool
}

// NewArgs returns Args for spec with the given values: vals maps parameter
// names to int, bool or string values; missing ones take their defaults. It
// returns an error naming the parameter if a value has the wrong type, a
// required one is missing, an Int is out of range, or a name is unknown.
func NewArgs(spec Spec, vals map[string]any) (Args, error) {
	a := Args{vals: map[string]any{}, given: map[string]bool{}}
	for name := range vals {
		if !slices.ContainsFunc(spec.Params, func(p Param) bool { return p.Name == name }) {
			return a, paramErrorf(spec.Name, name, vals[name], "is not a parameter of %s", spec.Name)
		}
	}
	for _, p := range spec.Params {
		v, ok := vals[p.Name]
		if !ok {
			if p.Required {
				return a, paramErrorf(spec.Name, p.Name, nil, "is required (%s)", p.Usage)
			}
			a.vals[p.Name] = p.Default
			continue
		}
		a.given[p.Name] = true
		switch p.Type {
		case Int:
			i, ok := v.(int)
			if !ok {
				return a, paramErrorf(spec.Name, p.Name, v, "must be an integer")
			}
			if i < p.Min || (p.Max != 0 && i > p.Max) {
				return a, paramErrorf(spec.Name, p.Name, i, "is out of range %s", p.Range())
			}
		case Bool:
			if _, ok := v.(bool); !ok {
				return a, paramErrorf(spec.Name, p.Name, v, "must be true or false")
			}
		case String:
			if _, ok := v.(string); !ok {
				return a, paramErrorf(spec.Name, p.Name, v, "must be a string")
			}
		}
		a.vals[p.Name] = v
	}
	return a, nil
}

// Int returns the value of an Int parameter (0 if it has no value).
func (a Args) Int(name string) int { i, _ := a.vals[name].(int); return i }

// Bool returns the value of a Bool parameter.
func (a Args) Bool(name string) bool { b, _ := a.vals[name].(bool); return b }

// String returns the value of a String parameter.
func (a Args) String(name string) string { s, _ := a.vals[name].(string); return s }

// IsSet reports whether the parameter was given rather than defaulted.
func (a Args) IsSet(name string) bool { return a.given[name] }

// Range describes the allowed values of an Int parameter, such as "≥ 2" or
// "3..41".
func (p Param) Range() string {
	if p.Max != 0 {
		return fmt.Sprintf("%d..%d", p.Min, p.Max)
	}
	return fmt.Sprintf("≥ %d", p.Min)
}

// Spec registers a construction: its name (the KIND of `coterie generate`),
// a one-line summary, the paper it comes from, its parameters, and Build.
type Spec struct {
	Name    string
	Summary string
	Source  string
	Params  []Param
	// Build constructs the system from validated arguments. It returns an
	// error for combinations the parameter ranges cannot express (an order
	// that is not a prime power, --h without --k, ...). It is BuildContext
	// with context.Background() for the registry's constructions.
	Build func(Args) (set.System, error)
	// BuildContext is Build watching ctx: listing up to
	// MaxCatalogueQuorums quorums takes seconds, and once ctx is done it
	// stops and returns ctx's error. The registry's constructions ([Specs],
	// [Lookup]) have both Build and BuildContext; for one that sets only
	// Build, BuildContext looks at ctx before and after it.
	BuildContext func(ctx context.Context, a Args) (set.System, error)
	// Stream, if not nil, produces the same system as Build without holding
	// it in memory, for orders whose quorums do not fit. It returns the
	// metadata (N, K, Kind, Params, Labels; no quorums) and the quorums in
	// canonical order as (quorum, owner) pairs, with set.NoOwner for an
	// unowned quorum. The sequence reuses the quorum from one step to the
	// next, so a consumer copies what it keeps; breaking out of the range
	// stops it, and each range starts again from the first quorum. Invalid
	// arguments are reported by the error, before any quorum.
	Stream func(a Args) (meta *set.Family, quorums iter.Seq2[*set.Set, int], err error)
	// Typed, if not nil, returns the construction as a typed system
	// without listing its quorums: what reading an implicit family
	// rebuilds (see [Typed]). Its value implements the capabilities of
	// package quorum that the construction can answer.
	Typed func(a Args) (quorum.System, error)
	// Layout, if not nil, is the picture that shows the construction's
	// structure, from its params and number of nodes: what [Drawn]'s
	// value answers as a [quorum.Drawer].
	Layout func(p set.Params, n int) (quorum.Layout, bool)
}

// specs lists every construction, sorted by name.
var specs = []Spec{bgridSpec, billiardSpec, boostFPPSpec, byzantineSpec, cgridSpec, cubeSpec, fppSpec, gridSpec, hqcSpec, maekawaSpec, majoritySpec, mgridSpec, treeSpec, triangleSpec, uniformSpec, voteSpec, wallSpec, wheelSpec}

// register adds a construction to the registry, keeping it sorted by
// name. A construction kept in a file of its own registers itself from
// that file's init function, so that adding one touches nothing else; it
// panics on a name already taken, which is a programming error caught by
// the first test that loads the package.
func register(s Spec) {
	i, found := slices.BinarySearchFunc(specs, s.Name, func(x Spec, name string) int {
		return strings.Compare(x.Name, name)
	})
	if found {
		panic("construct: two constructions called " + s.Name)
	}
	specs = slices.Insert(specs, i, s)
}

// Specs returns every registered construction, sorted by name.
func Specs() []Spec {
	out := make([]Spec, len(specs))
	for i, s := range specs {
		out[i] = s.complete()
	}
	return out
}

// complete fills in whichever of Build and BuildContext s leaves nil from
// the other.
func (s Spec) complete() Spec {
	switch {
	case s.BuildContext == nil && s.Build != nil:
		build := s.Build
		s.BuildContext = func(ctx context.Context, a Args) (set.System, error) {
			if err := ctx.Err(); err != nil {
				return set.System{}, err
			}
			sys, err := build(a)
			if err := ctx.Err(); err != nil {
				return set.System{}, err
			}
			return sys, err
		}
	case s.Build == nil && s.BuildContext != nil:
		build := s.BuildContext
		s.Build = func(a Args) (set.System, error) { return build(context.Background(), a) }
	}
	return s
}

// Lookup returns the construction called name.
func Lookup(name string) (Spec, bool) {
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i].complete(), true
}

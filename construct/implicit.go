package construct

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// implicitKinds are the constructions that may be stored in implicit form:
// those whose quorums grow exponentially with the nodes and whose
// availability package availability computes from the parameters alone.
var implicitKinds = []string{"hqc", "tree", "triangle", "vote", "wall"}

// ImplicitKinds returns the constructions that may be stored in implicit
// form (a [set.Family] with Implicit set), sorted by name.
func ImplicitKinds() []string { return slices.Clone(implicitKinds) }

// CanImplicit reports whether kind may be stored in implicit form.
func CanImplicit(kind string) bool { return slices.Contains(implicitKinds, kind) }

// shape is what an implicit family's parameters determine without its
// quorums: the nodes, the number of quorums (nil when it is not known
// without listing them), and the canonical params the construction records.
type shape struct {
	n      int
	count  *big.Int
	params set.Params
}

// implicitShape validates a for the construction kind and returns its shape.
func implicitShape(kind string, a Args) (shape, error) {
	switch kind {
	case "tree":
		d, h := a.Int("degree"), a.Int("height")
		n := TreeNodes(d, h)
		if n < 0 {
			return shape{}, paramErrorf(kind, "height", h, "with degree %d makes more than %d nodes", d, set.MaxNodes)
		}
		return shape{n, TreeCount(d, h), set.Params{"degree": d, "height": h}}, nil
	case "hqc":
		levels, err := ParseInts(kind, "levels", a.String("levels"), 1)
		if err != nil {
			return shape{}, err
		}
		n := 1
		for _, g := range levels {
			n *= g
			if n > set.MaxNodes {
				return shape{}, paramErrorf(kind, "levels", a.String("levels"), "makes more than %d nodes", set.MaxNodes)
			}
		}
		return shape{n, HQCCount(levels), set.Params{"levels": joinInts(levels)}}, nil
	case "wall", "triangle":
		widths, params, err := wallShape(kind, a)
		if err != nil {
			return shape{}, err
		}
		n, err := checkWidths(widths)
		if err != nil {
			return shape{}, err
		}
		return shape{n, WallCount(widths), params}, nil
	case "vote":
		weights, err := ParseInts(kind, "weights", a.String("weights"), 0)
		if err != nil {
			return shape{}, err
		}
		t, err := VoteThreshold(weights, a.Int("threshold"))
		if err != nil {
			return shape{}, err
		}
		if w := weights[0]; w > 0 && !slices.ContainsFunc(weights, func(x int) bool { return x != w }) {
			return shape{}, paramErrorf(kind, "weights", a.String("weights"), "are all equal: that is a threshold system, stored as \"threshold\", not implicitly")
		}
		return shape{len(weights), nil, set.Params{"weights": joinInts(weights), "threshold": t}}, nil
	}
	return shape{}, errorf(kind, "cannot be stored implicitly (the implicit kinds are %v)", implicitKinds)
}

// wallShape returns the row widths of a wall or triangle and the params its
// constructor records.
func wallShape(kind string, a Args) ([]int, set.Params, error) {
	if kind == "triangle" {
		d := a.Int("rows")
		widths := make([]int, d)
		for i := range widths {
			widths[i] = i + 1
		}
		return widths, set.Params{"rows": d}, nil
	}
	// The CWlog wall may list its widths too (as its files do), if they
	// are CWlog's.
	cwlog := a.Bool("cwlog") && a.IsSet("n")
	if !cwlog {
		if err := exactlyOne(kind, a, []string{"widths"}, []string{"cwlog", "n"}); err != nil {
			return nil, nil, err
		}
	}
	if cwlog {
		n := a.Int("n")
		widths := CWlogWidths(n)
		if a.IsSet("widths") && a.String("widths") != joinInts(widths) {
			return nil, nil, paramErrorf(kind, "widths", a.String("widths"), "are not the widths of the CWlog wall over %d nodes (%s)", n, shortInts(widths))
		}
		return widths, set.Params{"cwlog": true, "n": n, "widths": joinInts(widths)}, nil
	}
	widths, err := ParseInts(kind, "widths", a.String("widths"), 1)
	if err != nil {
		return nil, nil, err
	}
	return widths, set.Params{"widths": joinInts(widths)}, nil
}

// ImplicitFamily returns the implicit form of the construction spec with
// arguments a: a family with N, K = 1, Kind and the canonical Params, and
// no quorums. It refuses a kind that [CanImplicit] does not allow and
// parameters the construction does not take.
func ImplicitFamily(spec Spec, a Args) (*set.Family, error) {
	sh, err := implicitShape(spec.Name, a)
	if err != nil {
		return nil, err
	}
	return &set.Family{N: sh.n, K: 1, Kind: spec.Name, Params: sh.params, Implicit: true}, nil
}

// Implicit returns the implicit family of the construction kind with the
// params a file records, after checking them as `coterie generate` checks
// its flags: an unknown kind or parameter, a value of the wrong type or out
// of range is an error (a *ParamError, whose Parameter names the culprit,
// for every error but an unknown kind). File params hold numbers as int,
// int64 or float64; an Int parameter takes any of them when it is a whole
// number.
func Implicit(kind string, params set.Params) (*set.Family, error) {
	_, _, sh, err := implicitParse(kind, params)
	if err != nil {
		return nil, err
	}
	return &set.Family{N: sh.n, K: 1, Kind: kind, Params: sh.params, Implicit: true}, nil
}

// implicitParse checks kind and params and returns the construction, its
// arguments and its shape.
func implicitParse(kind string, params set.Params) (Spec, Args, shape, error) {
	if !CanImplicit(kind) {
		if _, ok := Lookup(kind); !ok {
			return Spec{}, Args{}, shape{}, errorf("", "unknown kind %q (an implicit family is one of %v)", kind, implicitKinds)
		}
		return Spec{}, Args{}, shape{}, errorf("", "%s cannot be stored implicitly (the implicit kinds are %v)", kind, implicitKinds)
	}
	spec, _ := Lookup(kind)
	a, err := argsFromParams(spec, params)
	if err != nil {
		return Spec{}, Args{}, shape{}, err
	}
	sh, err := implicitShape(kind, a)
	var pe *ParamError
	if err != nil && !errors.As(err, &pe) {
		// A combination of values no single flag is to blame for.
		err = &ParamError{Kind: kind, Param: "params", Reason: "are refused: " + reason(err), Err: err}
	}
	return spec, a, sh, err
}

// argsFromParams returns the arguments of spec that a file's params
// record: numbers come as int, int64 or float64, and an Int parameter
// takes any of them when it is a whole number.
func argsFromParams(spec Spec, params set.Params) (Args, error) {
	vals := make(map[string]any, len(params))
	for name, v := range params {
		i := slices.IndexFunc(spec.Params, func(p Param) bool { return p.Name == name })
		if i >= 0 && spec.Params[i].Type == Int {
			switch x := v.(type) {
			case int64:
				v = int(x)
			case float64:
				if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
					v = int(x)
				}
			}
		}
		vals[name] = v
	}
	return NewArgs(spec, vals)
}

// Parameter returns the name of the parameter at fault, so that a reader
// of files can tell a parameter's error from others without importing
// this package.
func (e *ParamError) Parameter() string { return e.Param }

// Count returns the number of quorums of f: an explicit or threshold
// family's own count, or an implicit family's from its construction's
// *Count function (capped at 2^4096 as they are). ok is false when the
// count is not known without listing the quorums (weighted voting) or f's
// construction is not valid.
func Count(f *set.Family) (count *big.Int, ok bool) {
	if !f.IsImplicit() {
		return f.Count(), true
	}
	_, _, sh, err := implicitParse(f.Kind, f.Params)
	if err != nil || sh.count == nil {
		return nil, false
	}
	return sh.count, true
}

// Sizes returns the sizes of the smallest and largest quorums of f: an
// explicit or threshold family's own, or an implicit family's from its
// construction (a [quorum.Sizer]). ok is false when the construction does
// not know them without listing the quorums, or is not valid.
func Sizes(f *set.Family) (smallest, largest int, ok bool) {
	if !f.IsImplicit() {
		st := f.Stats()
		return st.MinSize, st.MaxSize, true
	}
	sys, err := Typed(f)
	if err != nil {
		return 0, 0, false
	}
	s, ok := sys.(quorum.Sizer)
	if !ok {
		return 0, 0, false
	}
	smallest, largest = s.QuorumSizes()
	return smallest, largest, true
}

// Materialize returns f as an explicit family of at most limit quorums: an
// explicit or threshold family as [set.Family.Enumerate] lists it, an
// implicit one built by its construction (the same quorums, in the same
// canonical order, as `coterie generate` writes). More than limit quorums
// is an error wrapping [set.ErrTooMany]; so is a construction's refusal to
// list them (past MaxCatalogueQuorums, or more than fit in memory), the
// only refusal left once its params are checked.
func Materialize(f *set.Family, limit int) (*set.Family, error) {
	return materialize(context.Background(), f, limit)
}

// materialize is [Materialize] watching ctx.
func materialize(ctx context.Context, f *set.Family, limit int) (*set.Family, error) {
	if !f.IsImplicit() {
		return f.EnumerateContext(ctx, limit)
	}
	spec, a, sh, err := implicitParse(f.Kind, f.Params)
	if err != nil {
		return nil, err
	}
	if sh.n != f.N {
		return nil, errorf("", "%s %v has %d nodes, not n = %d", f.Kind, f.Params, sh.n, f.N)
	}
	if c := sh.count; c != nil && (limit < 0 || c.Cmp(big.NewInt(int64(limit))) > 0) {
		return nil, errorf(f.Kind, "%s quorums exceed the limit of %d: %w", approx(c), limit, set.ErrTooMany)
	}
	if f.Kind == "wall" && a.Bool("cwlog") {
		// Build takes --cwlog --n alone; the widths follow from n.
		delete(a.vals, "widths")
		delete(a.given, "widths")
	}
	sys, err := spec.complete().BuildContext(ctx, a)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, set.ErrTooMany) {
			return nil, err
		}
		return nil, fmt.Errorf("%w (%w)", err, set.ErrTooMany)
	}
	h := sys.Family
	if h == nil || h.IsThreshold() || h.IsImplicit() {
		return nil, errorf("", "%s %v does not build a list of quorums", f.Kind, f.Params)
	}
	if len(h.Quorums) > limit {
		return nil, errorf(f.Kind, "%d quorums exceed the limit of %d: %w", len(h.Quorums), limit, set.ErrTooMany)
	}
	h.Labels = f.Labels
	return h, nil
}

// approx formats a count for a message: exact up to 20 digits, else a power
// of two.
func approx(c *big.Int) string {
	if c.BitLen() > 64 {
		return fmt.Sprintf("about 2^%d", c.BitLen()-1)
	}
	return c.String()
}

// TooManyToList reports whether the construction spec with arguments a,
// whose implicit form is f ([ImplicitFamily]), has more quorums than a
// constructor lists ([MaxCatalogueQuorums]), so that it is to be written
// in its implicit form: by its count, or, when that is not known without
// listing (weighted voting), by whether listing it fails. A listing that
// ctx stops reports false.
func TooManyToList(ctx context.Context, spec Spec, a Args, f *set.Family) bool {
	c, known := Count(f)
	if !known {
		_, err := spec.BuildContext(ctx, a)
		return err != nil && ctx.Err() == nil
	}
	return c.Cmp(big.NewInt(MaxCatalogueQuorums)) > 0
}

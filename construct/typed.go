package construct

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// ListLimit is how many quorums the library lists, by default, to answer a
// question about an implicit family that its construction does not answer
// itself (verify, domination, measure, availability on an implicit family).
const ListLimit = 100000

// ListError is the refusal to list an implicit family's quorums: it has
// more than Limit of them (Count, or nil when they are not counted without
// listing). It wraps [set.ErrTooMany].
type ListError struct {
	Kind   string
	Params set.Params
	Count  *big.Int // nil when not known
	Limit  int
}

// Error says which construction has too many quorums.
func (e *ListError) Error() string {
	c := "more"
	if e.Count != nil {
		c = approx(e.Count)
	}
	return fmt.Sprintf("construct: %s %v has %s quorums, more than the limit of %d to list them: %v", e.Kind, e.Params, c, e.Limit, set.ErrTooMany)
}

// Unwrap returns [set.ErrTooMany].
func (e *ListError) Unwrap() error { return set.ErrTooMany }

// Explicit returns f with its quorums listed: f itself when it is explicit
// or a threshold family, and an implicit family materialised by its
// construction when it has at most limit quorums. More is a *[ListError]
// (wrapping [set.ErrTooMany]); ctx's error when ctx ends first.
func Explicit(ctx context.Context, f *set.Family, limit int) (*set.Family, error) {
	if !f.IsImplicit() {
		return f, nil
	}
	return MaterializeContext(ctx, f, limit)
}

// MaterializeContext is [Materialize] watching ctx, and with a *[ListError]
// when f has more than limit quorums.
func MaterializeContext(ctx context.Context, f *set.Family, limit int) (*set.Family, error) {
	g, err := materialize(ctx, f, limit)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if errors.Is(err, set.ErrTooMany) && f.IsImplicit() {
		c, _ := Count(f)
		return nil, &ListError{Kind: f.Kind, Params: f.Params, Count: c, Limit: limit}
	}
	return g, err
}

// Typed returns f as a typed system: the construction that f's kind and
// params name, rebuilt through the registry, for an implicit family (with
// f's labels); a [quorum.Listed] for a list, which carries f's kind and
// params as [quorum.Described] when it has them, and for a threshold
// family also a [quorum.Thresholder] with its sizes and closed-form load.
// The typed construction answers what it knows without its quorums through
// the capability interfaces of package quorum.
func Typed(f *set.Family) (quorum.System, error) {
	if f.IsThreshold() {
		return threshold{listed{quorum.Listed{F: f}}}, nil
	}
	if !f.IsImplicit() {
		return listed{quorum.Listed{F: f}}, nil
	}
	spec, a, sh, err := implicitParse(f.Kind, f.Params)
	if err != nil {
		return nil, err
	}
	if sh.n != f.N {
		return nil, errorf("", "%s %v has %d nodes, not n = %d", f.Kind, f.Params, sh.n, f.N)
	}
	if spec.Typed == nil {
		return nil, errorf(f.Kind, "has no typed construction")
	}
	sys, err := spec.Typed(a)
	if err != nil {
		return nil, err
	}
	if l, ok := sys.(interface{ setLabels([]string) }); ok {
		l.setLabels(f.Labels)
	}
	return sys, nil
}

// Form returns f as a typed system, as [Typed] does, or, when f's kind and
// params name no construction it can rebuild, as f's own form
// ([quorum.Of]). It is how a consumer asks a family once for its
// capabilities.
func Form(f *set.Family) quorum.System {
	sys, err := Typed(f)
	if err != nil {
		return quorum.Of(f)
	}
	return sys
}

// ThresholdForm returns f's typed form as a [quorum.Thresholder] when it
// is one (every w-subset of its nodes, held without its quorums), else
// nil.
func ThresholdForm(f *set.Family) quorum.Thresholder {
	t, _ := Form(f).(quorum.Thresholder)
	return t
}

// listed is a listed family seen as a typed system: its kind and params
// are what the file or constructor recorded.
type listed struct{ quorum.Listed }

// Kind returns the family's recorded kind.
func (l listed) Kind() string { return l.F.Kind }

// Params returns the family's recorded params.
func (l listed) Params() set.Params { return l.F.Params }

// QuorumCount returns the number of listed quorums (C(n, w) for a
// threshold family).
func (l listed) QuorumCount() (*big.Int, bool) { return l.F.Count(), true }

// threshold is a threshold family (every w-subset of n nodes) as a typed
// system.
type threshold struct{ listed }

// Threshold returns w.
func (t threshold) Threshold() int { return t.F.Threshold }

// QuorumSizes returns w and w.
func (t threshold) QuorumSizes() (smallest, largest int) { return t.F.Threshold, t.F.Threshold }

// ClosedFormLoad returns w/n: the uniform strategy loads every node
// w/n, and no strategy less, since the node loads sum to w (Naor and
// Wool 1998, Prop. 4.3's argument for symmetric systems). ok is false
// when w exceeds n (the family has no quorum).
func (t threshold) ClosedFormLoad() (*big.Rat, bool) {
	if t.F.Threshold > t.F.N {
		return nil, false
	}
	return big.NewRat(int64(t.F.Threshold), int64(t.F.N)), true
}

// implicitBase is what every typed implicit construction holds: its kind,
// canonical params, nodes and labels. Family materialises it through its
// construction.
type implicitBase struct {
	kind   string
	params set.Params
	n      int
	labels []string
}

// N returns the number of nodes.
func (b *implicitBase) N() int { return b.n }

// K returns 1: the implicit constructions are coteries.
func (b *implicitBase) K() int { return 1 }

// Labels returns the nodes' names, or nil.
func (b *implicitBase) Labels() []string { return b.labels }

func (b *implicitBase) setLabels(l []string) { b.labels = l }

// Kind returns the construction's kind.
func (b *implicitBase) Kind() string { return b.kind }

// Params returns the construction's canonical params.
func (b *implicitBase) Params() set.Params { return b.params }

// Implicit returns the construction as an implicit family.
func (b *implicitBase) Implicit() *set.Family {
	return &set.Family{N: b.n, K: 1, Kind: b.kind, Params: b.params, Labels: b.labels, Implicit: true}
}

// Family lists the construction's quorums, at most limit of them (a
// *[ListError] when more).
func (b *implicitBase) Family(ctx context.Context, limit int) (*set.Family, error) {
	if CanImplicit(b.kind) {
		return MaterializeContext(ctx, b.Implicit(), limit)
	}
	spec, _ := Lookup(b.kind)
	a, err := argsFromParams(spec, b.params)
	if err != nil {
		return nil, err
	}
	sys, err := spec.complete().BuildContext(ctx, a)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := sys.Family
	if len(f.Quorums) > limit {
		return nil, &ListError{Kind: b.kind, Params: b.params, Count: big.NewInt(int64(len(f.Quorums))), Limit: limit}
	}
	f.Labels = b.labels
	return f, nil
}

func init() { set.SetImplicitStats(implicitStats) }

// implicitStats is [set.Family.StatsContext] of an implicit family: the
// stats of its quorums listed under ctx, when there are at most ListLimit;
// otherwise what its construction knows, with Err saying why the rest is
// missing (ctx's error when ctx ended first).
func implicitStats(ctx context.Context, f *set.Family) set.Stats {
	g, err := Explicit(ctx, f, ListLimit)
	if err == nil {
		return g.Stats()
	}
	st := set.Stats{N: f.N, Quorums: new(big.Int), SizeSum: new(big.Int), MinDegree: new(big.Int), MaxDegree: new(big.Int), Err: err}
	if sys, terr := Typed(f); terr == nil {
		if c, ok := sys.(quorum.Counter); ok {
			if n, ok := c.QuorumCount(); ok {
				st.Quorums = n
			}
		}
		if s, ok := sys.(quorum.Sizer); ok {
			st.MinSize, st.MaxSize = s.QuorumSizes()
		}
	}
	return st
}

// Claimed returns the typed construction that f's kind and params name,
// whatever f's form, when the registry has one for them; ok is false
// otherwise. For a listed family it is a claim, not a fact: the file
// says what built it, and a consumer that uses the claim (to try a
// certificate first, say) checks it on f's quorums.
func Claimed(f *set.Family) (sys quorum.System, ok bool) {
	if f.Kind == "" {
		return nil, false
	}
	spec, found := Lookup(f.Kind)
	if !found || spec.Typed == nil {
		return nil, false
	}
	a, err := argsFromParams(spec, f.Params)
	if err != nil {
		return nil, false
	}
	sys, err = spec.Typed(a)
	if err != nil || sys.N() != f.N {
		return nil, false
	}
	return sys, true
}

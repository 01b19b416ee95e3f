package verify

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/quorum"
	"github.com/coterie-dev/coterie/set"
)

// verifyListed checks f on its quorums, listed by its construction for an
// implicit family when there are at most opts.ListLimit of them; past
// that, by the construction's proof (a [quorum.Prover]), which the report
// cites as an informational "construction" check.
func verifyListed(ctx context.Context, f *set.Family, opts Options) (*Report, error) {
	g, err := construct.Explicit(ctx, f, opts.listLimit())
	if err == nil {
		return verifyFamily(ctx, g, opts)
	}
	var le *construct.ListError
	if !errors.As(err, &le) {
		return nil, fmt.Errorf("verify: %w", err)
	}
	r, err2 := ByConstruction(f, opts)
	if err2 != nil {
		return nil, fmt.Errorf("verify: %w; %w", err, err2)
	}
	return r, nil
}

func (o Options) listLimit() int {
	if o.ListLimit == 0 {
		return construct.ListLimit
	}
	return o.ListLimit
}

// ByConstruction is the report on an implicit family f that has more than
// opts.ListLimit quorums, without listing them: valid by its
// construction's proof (a [quorum.Prover]). It is an error when the
// construction has none.
func ByConstruction(f *set.Family, opts Options) (*Report, error) {
	sys, err := construct.Typed(f)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	p, ok := sys.(quorum.Prover)
	if !ok {
		return nil, fmt.Errorf("verify: the %s construction has no proof that answers without its quorums", f.Kind)
	}
	limit := opts.listLimit()
	name := opts.LimitName
	if name == "" {
		name = "the limit"
	}
	count, what := countOf(sys)
	why := fmt.Sprintf("by construction; not checked on the quorums (%s, more than %s %d)", what, name, limit)
	return &Report{Valid: true, N: f.N, K: f.K, Quorums: count, Checks: []Check{
		{Name: "intersection", OK: true, Detail: why},
		{Name: "minimality", OK: true, Detail: why},
		ConstructionCheck(f.Kind, p),
	}}, nil
}

// ConstructionCheckOf is the informational check that cites why the
// construction of the implicit family f is a coterie; ok is false when f's
// typed form ([construct.Typed]) has no proof (a [quorum.Prover]): a list,
// a threshold family, an invalid implicit family or a construction
// without one.
func ConstructionCheckOf(f *set.Family) (c Check, ok bool) {
	sys, err := construct.Typed(f)
	if err != nil {
		return Check{}, false
	}
	p, ok := sys.(quorum.Prover)
	if !ok {
		return Check{}, false
	}
	return ConstructionCheck(f.Kind, p), true
}

// ConstructionCheck is the informational check that cites why the
// construction kind is a coterie.
func ConstructionCheck(kind string, p quorum.Prover) Check {
	return Check{Name: "construction", OK: true, Info: true,
		Detail: fmt.Sprintf("valid by construction (%s): %s", kind, p.IntersectionProof())}
}

// countOf returns sys's number of quorums when its
// construction counts them (nil otherwise), and that number in words:
// exact up to 15 digits, else "about d.d × 10^e"; "its quorums are not
// counted without listing them" when unknown.
func countOf(sys quorum.System) (*big.Int, string) {
	if c, ok := sys.(quorum.Counter); ok {
		if n, ok := c.QuorumCount(); ok {
			d := n.String()
			if len(d) > 15 {
				d = fmt.Sprintf("about %c.%c × 10^%d", d[0], d[1], len(d)-1)
			}
			return n, d + " quorums"
		}
	}
	return nil, "its quorums are not counted without listing them"
}

// explicitFamily returns f with its quorums listed ([construct.Explicit]:
// f itself for a list or a threshold family, an implicit family's
// quorums when there are at most construct.ListLimit; a
// *construct.ListError, wrapping set.ErrTooMany, when more).
func explicitFamily(ctx context.Context, f *set.Family) (*set.Family, error) {
	g, err := construct.Explicit(ctx, f, construct.ListLimit)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	return g, nil
}

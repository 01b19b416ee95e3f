package analysis

import (
	"context"

	"github.com/coterie-dev/coterie/set"
)

// System is the figures of a quorum system: one [Family] for a coterie or
// a k-arbiter, one a level for an (h,k)-arbiter.
type System struct {
	N, K   int
	Kind   string
	Params set.Params
	// Levels reports an (h,k)-arbiter: Families are its levels.
	Levels   bool
	Families []Family
	// Stopped is the figure being computed when the context ended (0 when
	// it did not): the figures before it are proved; the families after
	// the one it stopped in are missing when it is not Availability.
	Stopped Figure
}

// Measure returns the figures of every family of sys: first load,
// resilience and the Byzantine figures of each, then the availability of
// each at o.Points. When ctx ends, the figures found so far are returned
// with ctx's error (System.Stopped says where); any other failure is a
// *[FigureError] and no result.
func Measure(ctx context.Context, sys set.System, o Options) (*System, error) {
	r := &System{N: sys.N(), K: sys.K(), Kind: sys.Kind(), Levels: sys.HK != nil}
	if sys.HK != nil {
		r.Params = sys.HK.Params
	} else {
		r.Params = sys.Family.Params
	}
	for _, f := range sys.Families() {
		fa, err := newFamily(ctx, f)
		if err != nil {
			// Stopped before any figure of this family: nothing to show.
			return nil, err
		}
		stopped, err := fa.measure(ctx, o)
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		r.Families = append(r.Families, fa)
		if err != nil {
			r.Stopped = stopped
			return r, err
		}
	}
	if err := r.MeasureAvailability(ctx, o); err != nil {
		if ctx.Err() == nil {
			return nil, err
		}
		return r, err
	}
	return r, nil
}

// MeasureAvailability sets the availability of each family at o.Points
// (see [Family.MeasureAvailability]), in order; when ctx ends it sets
// Stopped and returns ctx's error, the families after the one stopped
// left without availability.
func (r *System) MeasureAvailability(ctx context.Context, o Options) error {
	for i := range r.Families {
		if err := r.Families[i].MeasureAvailability(ctx, o); err != nil {
			if ctx.Err() != nil {
				r.Stopped = Availability
			}
			return err
		}
	}
	return nil
}

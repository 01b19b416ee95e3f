package construct

import (
	"context"

	"github.com/coterie-dev/coterie/set"
)

// pollEvery is how many steps (quorums made, mostly) a construction takes
// between two looks at its context: a few thousand steps take well under
// a millisecond, and a look costs a mutex at most.
const pollEvery = 4096

// poll looks at ctx at its first step and then every pollEvery steps.
type poll struct {
	ctx  context.Context
	left int // steps before the next look
}

// stop counts one step and returns ctx's error when it is time to look
// (see [poll.steps]).
func (p *poll) stop() error { return p.steps(1) }

// steps counts w steps at once (a quorum that takes w·256 insertions, say)
// and returns ctx's error at the first step and once pollEvery steps have
// passed since the last look, nil otherwise.
func (p *poll) steps(w int) error {
	if p.left -= w; p.left > 0 {
		return nil
	}
	p.left = pollEvery
	return p.ctx.Err()
}

// stopped carries ctx's error out of an enumeration that has no way to
// stop but a panic (see [collect]).
type stopped struct{ err error }

// collect runs enum, which calls emit once per quorum on a scratch set, and
// returns the quorums as a canonical unowned family. Once ctx is done
// (looked at every pollEvery quorums) it stops the enumeration and returns
// ctx's error.
func collect(ctx context.Context, n int, kind string, params set.Params, enum func(s *set.Set, emit func())) (f *set.Family, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f = set.NewFamily(n)
	f.Kind, f.Params = kind, params
	s := set.New(n)
	p := poll{ctx: ctx}
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(stopped)
			if !ok {
				panic(r)
			}
			f, err = nil, st.err
		}
	}()
	enum(s, func() {
		if err := p.stop(); err != nil {
			panic(stopped{err})
		}
		f.Add(s, set.NoOwner)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.Canonical()
	return f, nil
}

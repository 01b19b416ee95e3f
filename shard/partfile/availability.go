package partfile

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/coterie-dev/coterie/availability"
	"github.com/coterie-dev/coterie/shard"
)

// AvailabilityOptions are the options of `availability` that an availability part
// records: parts merge only when theirs are the same (but for the name
// and format, which only change how the merge prints).
type AvailabilityOptions struct {
	Name        string    `json:"name"`
	Format      string    `json:"format"`
	Points      []float64 `json:"points"`
	PointsGiven bool      `json:"points_given"`
	Polynomial  bool      `json:"polynomial"`
	Digits      int       `json:"digits"`
	Method      string    `json:"method"`
	Samples     int       `json:"samples"`
	Seed        uint64    `json:"seed"`
}

// AvailabilityResult is what a shard proved about one input: its share of each
// family (one per level of an (h,k)-arbiter).
type AvailabilityResult struct {
	N, K   int
	HK     bool
	Shares []*availability.Share
}

type avResult struct {
	N        int        `json:"n"`
	K        int        `json:"k"`
	HK       bool       `json:"hk,omitempty"`
	Families []avFamily `json:"families"`
}

type avFamily struct {
	H            int       `json:"h,omitempty"`
	N            int       `json:"n"`
	Share        string    `json:"share"`
	Method       string    `json:"method"`
	Exact        bool      `json:"exact"`
	Reason       string    `json:"reason,omitempty"`
	Pieces       int       `json:"pieces,omitempty"`
	PiecesDone   int       `json:"pieces_done,omitempty"`
	Split        string    `json:"split,omitempty"`
	Coefficients []string  `json:"coefficients,omitempty"`
	Proved       *partial  `json:"proved,omitempty"`
	Points       []avPoint `json:"points,omitempty"`
}

type avPoint struct {
	P       float64 `json:"p"`
	Hits    int     `json:"hits"`
	Samples int     `json:"samples"`
	Seed    uint64  `json:"seed"`
	Lo      float64 `json:"bound_low"`
	Hi      float64 `json:"bound_high"`
}

// partial is an availability.Partial: the coefficients null where
// unknown, decimal strings elsewhere.
type partial struct {
	N            int       `json:"n"`
	Coefficients []*string `json:"coefficients"`
	MinQuorum    int       `json:"min_quorum"`
	Intersecting bool      `json:"intersecting"`
	Sizes        []int     `json:"quorum_sizes"`
}

func partialOf(p *availability.Partial) *partial {
	if p == nil {
		return nil
	}
	w := &partial{N: p.N, MinQuorum: p.MinQuorum, Intersecting: p.Intersecting, Sizes: p.Sizes}
	w.Coefficients = make([]*string, len(p.A))
	for i, a := range p.A {
		if p.Known[i] {
			s := a.String()
			w.Coefficients[i] = &s
		}
	}
	return w
}

func (w *partial) decode() (*availability.Partial, error) {
	if w == nil {
		return nil, nil
	}
	if w.N < 0 || len(w.Coefficients) != w.N+1 {
		return nil, fmt.Errorf("partial: %d coefficients for %d nodes", len(w.Coefficients), w.N)
	}
	p := &availability.Partial{N: w.N, Known: make([]bool, w.N+1), A: make([]*big.Int, w.N+1), MinQuorum: w.MinQuorum, Intersecting: w.Intersecting, Sizes: w.Sizes}
	for i, c := range w.Coefficients {
		p.A[i] = new(big.Int)
		if c == nil {
			continue
		}
		k, ok := parseCount(*c)
		if !ok {
			return nil, fmt.Errorf("partial: coefficient %d is not a count: %q", i, *c)
		}
		p.A[i], p.Known[i] = k, true
	}
	return p, nil
}

func polyStrings(p *availability.Polynomial) []string {
	if p == nil {
		return nil
	}
	return p.Strings()
}

// parsePoly reads the coefficients of a polynomial over n nodes.
func parsePoly(n int, cs []string) (*availability.Polynomial, error) {
	if len(cs) != n+1 {
		return nil, fmt.Errorf("%d coefficients for %d nodes", len(cs), n)
	}
	p := availability.NewPolynomial(n)
	for i, c := range cs {
		k, ok := parseCount(c)
		if !ok {
			return nil, fmt.Errorf("coefficient %d is not a count: %q", i, c)
		}
		p.A[i].Set(k)
	}
	return p, nil
}

// AvailabilityPart returns the part of shard sp with result r.
func AvailabilityPart(sp shard.Spec, hash string, o AvailabilityOptions, r AvailabilityResult) (*shard.Part, error) {
	w := avResult{N: r.N, K: r.K, HK: r.HK, Families: []avFamily{}}
	for _, sh := range r.Shares {
		f := avFamily{H: sh.H, N: sh.N, Share: string(sh.Kind), Method: string(sh.Method), Exact: sh.Exact, Reason: sh.Reason,
			Pieces: sh.Pieces, PiecesDone: sh.PiecesDone, Split: sh.Split, Coefficients: polyStrings(sh.Poly), Proved: partialOf(sh.Proved)}
		for _, pt := range sh.Points {
			e := pt.Estimate
			f.Points = append(f.Points, avPoint{P: pt.P, Hits: e.Hits, Samples: e.Samples, Seed: e.Seed, Lo: pt.Lo, Hi: pt.Hi})
		}
		w.Families = append(w.Families, f)
	}
	if len(r.Shares) == 0 {
		w.Families = nil
	}
	return shard.New(KindAvailability, sp, hash, o, w)
}

// DecodeAvailability reads the options and results of checked
// availability parts (see shard.Check).
func DecodeAvailability(parts []*shard.Part) (AvailabilityOptions, []AvailabilityResult, error) {
	o, err := shard.DecodeOptions[AvailabilityOptions](parts[0])
	if err != nil {
		return o, nil, err
	}
	ws, err := shard.Decode[avResult](parts)
	if err != nil {
		return o, nil, err
	}
	out := make([]AvailabilityResult, len(ws))
	for i, w := range ws {
		r := AvailabilityResult{N: w.N, K: w.K, HK: w.HK}
		for _, f := range w.Families {
			sh := &availability.Share{H: f.H, N: f.N, Kind: availability.ShareKind(f.Share), Method: availability.Method(f.Method),
				Exact: f.Exact, Reason: f.Reason, Pieces: f.Pieces, PiecesDone: f.PiecesDone, Split: f.Split}
			if f.Coefficients != nil {
				if sh.Poly, err = parsePoly(f.N, f.Coefficients); err != nil {
					return o, nil, fmt.Errorf("shard %s: %v", parts[i].Shard, err)
				}
			}
			if sh.Proved, err = f.Proved.decode(); err != nil {
				return o, nil, fmt.Errorf("shard %s: %v", parts[i].Shard, err)
			}
			for _, pt := range f.Points {
				sh.Points = append(sh.Points, availability.Point{P: pt.P, Lo: pt.Lo, Hi: pt.Hi,
					Estimate: &availability.Estimate{Hits: pt.Hits, Samples: pt.Samples, Seed: pt.Seed}})
			}
			r.Shares = append(r.Shares, sh)
		}
		out[i] = r
	}
	return o, out, nil
}

// avCheckpoint is the checkpoint of availability: the pieces done of each
// split family of one input (and shard), and their sum.
type avCheckpoint struct {
	head
	Families []avCheckpointFamily `json:"families"`
}

type avCheckpointFamily struct {
	Family int      `json:"family"`
	Pieces int      `json:"pieces"`
	Split  string   `json:"split,omitempty"`
	Done   []int    `json:"done"`
	Sum    []string `json:"sum"`
}

// AvailabilityCheckpoint returns the checkpoint file of ck, the progress
// of shard sp on the input with the given hash.
func AvailabilityCheckpoint(hash string, sp shard.Spec, ck *availability.Checkpoint) any {
	w := avCheckpoint{head: newHead(KindAvailability, hash, sp)}
	for _, f := range ck.Families {
		w.Families = append(w.Families, avCheckpointFamily{Family: f.Family, Pieces: 1 << f.State.Bits, Split: f.State.Split,
			Done: slices.Clone(f.State.Done), Sum: polyStrings(f.State.Sum)})
	}
	return w
}

// ReadAvailabilityCheckpoint reads the checkpoint data of shard sp on
// the input with the given hash (a *shard.CheckpointError if it is not
// one).
func ReadAvailabilityCheckpoint(data []byte, hash string, sp shard.Spec) (*availability.Checkpoint, error) {
	var w avCheckpoint
	if err := shard.ReadCheckpoint(data, shard.CheckpointHead{Kind: KindAvailability, InputSHA256: hash, Shard: sp}, &w); err != nil {
		return nil, err
	}
	ck := &availability.Checkpoint{}
	for _, f := range w.Families {
		bits := 0
		for 1<<bits < f.Pieces && bits < 31 {
			bits++
		}
		if f.Pieces < 1 || 1<<bits != f.Pieces {
			return nil, fmt.Errorf("checkpoint: family %d: %d pieces is not a power of 2", f.Family+1, f.Pieces)
		}
		sum, err := parsePoly(len(f.Sum)-1, f.Sum)
		if err != nil || len(f.Sum) == 0 {
			return nil, fmt.Errorf("checkpoint: family %d: %v", f.Family+1, err)
		}
		ck.Families = append(ck.Families, availability.CheckpointFamily{Family: f.Family,
			State: &availability.PieceState{Bits: bits, Split: f.Split, Done: f.Done, Sum: sum}})
	}
	return ck, nil
}

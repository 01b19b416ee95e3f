package web

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// The explorer's own views: the availability curve of a kept system, for
// the comparison chart, and both sides of a read-write system, for
// failing nodes on reads and writes.

// CurvePoint is the availability of a system at one p.
type CurvePoint struct {
	P  float64 `json:"p"`
	AV float64 `json:"av"`
	// U is 1 − AV (from the exact polynomial when the curve is exact, so
	// that it stays accurate where AV rounds to 1).
	U float64 `json:"u"`
}

// Curve is a kept system's availability curve, p from 0.5 to 0.999.
type Curve struct {
	ID     string       `json:"id"`
	Name   string       `json:"name"`
	Exact  bool         `json:"exact"`
	Points []CurvePoint `json:"points"`
}

// curve answers GET /api/curve/{id}.
func (s *Server) curve(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	e, ok := s.lookup(id)
	if !ok {
		fail(w, http.StatusNotFound, "no such system (analyse it again)")
		return
	}
	c := Curve{ID: id, Name: e.name, Exact: e.rep.AvExact, Points: []CurvePoint{}}
	for _, pt := range e.rep.Curve {
		u := 1 - pt.AV
		if pt.U != nil {
			u, _ = pt.U.Float64()
		}
		if math.IsNaN(u) || math.IsInf(u, 0) {
			continue
		}
		c.Points = append(c.Points, CurvePoint{P: pt.P, AV: pt.AV, U: u})
	}
	writeJSON(w, http.StatusOK, c)
}

// Side is one side of a read-write system as the explorer draws it.
type Side struct {
	Quorums [][]int `json:"quorums"` // 1-based
	Drawing string  `json:"drawing"` // inline SVG
}

// Sides are both sides of a read-write system.
type Sides struct {
	N      int      `json:"n"`
	Labels []string `json:"labels"`
	Reads  *Side    `json:"reads"`
	Writes *Side    `json:"writes"`
}

// maxSideQuorums bounds the quorums listed and drawn on each side.
const maxSideQuorums = 20000

// sideFamily lists a side's minimal quorums as [rw.Side.Family] does, and
// stops when ctx ends (checked at every quorum found).
func sideFamily(ctx context.Context, sd *rw.Side, n, limit int) (*set.Family, error) {
	if sd.List != nil {
		if len(sd.List.Quorums) > limit {
			return nil, fmt.Errorf("more than %d quorums to list", limit)
		}
		return sd.List, nil
	}
	f := set.NewFamily(n)
	for q := range sd.Expr.MinimalQuorums() {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cancelled: %w", err)
		}
		if len(f.Quorums) == limit {
			return nil, fmt.Errorf("more than %d quorums to list", limit)
		}
		f.Add(q, set.NoOwner)
	}
	return f, nil
}

// sides answers POST /api/sides with a read-write system's file as the
// body: the read and the write quorums, each listed and drawn.
func (s *Server) sides(w http.ResponseWriter, r *http.Request) {
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "pasted"
	}
	if !format.IsRWAny(data) {
		fail(w, http.StatusBadRequest, "%s: not a read-write system", name)
		return
	}
	f, ok := readRWUpload(w, name, data)
	if !ok {
		return
	}
	if f.N > s.o.MaxNodes {
		fail(w, http.StatusBadRequest, "%s: %d nodes, more than the explorer's limit of %d (use the command line)", name, f.N, s.o.MaxNodes)
		return
	}
	tree, err := uploadDomains(name, f, format.NewUniverse(f.N, f.Labels, true).Labels)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	ctx, done, ok := s.worker(w, r)
	if !ok {
		return
	}
	defer done()
	s.run(ctx, w, r, func(ctx context.Context, _ func(string)) (any, error) {
		sys, err := rwSystem(ctx, f)
		if err != nil {
			return nil, err
		}
		out := &Sides{N: sys.N}
		for v := range sys.N {
			out.Labels = append(out.Labels, sys.Label(v))
		}
		for i, sd := range []*Side{{}, {}} {
			side := &sys.Reads
			if i == 1 {
				side = &sys.Writes
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			fam, err := sideFamily(ctx, side, sys.N, maxSideQuorums)
			if err != nil {
				return nil, err
			}
			g := fam.Clone()
			g.K, g.H, g.Labels = 1, 0, out.Labels
			for q := range g.Quorums {
				el := g.Quorums[q].Elements()
				for j := range el {
					el[j]++
				}
				sd.Quorums = append(sd.Quorums, el)
			}
			if sc, err := draw.Draw(set.System{Family: g}, draw.Options{Domains: tree}); err == nil {
				var b strings.Builder
				_ = sc.WriteSVGOptions(&b, draw.SVGOptions{Inline: true})
				sd.Drawing = b.String()
			}
			if i == 0 {
				out.Reads = sd
			} else {
				out.Writes = sd
			}
		}
		return out, nil
	})
}

package analysis

import (
	"context"
	"math/big"

	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/systems"
)

// Quorums is the listing of a configuration's quorums (a figure that may
// fail: too many to list).
const Quorums Figure = 201

// ConfigOptions control [CheckConfig].
type ConfigOptions struct {
	// Points are the p at which the availability of reads and of writes
	// is given; at least one.
	Points []float64
	// Override gives some nodes (0-based) their own probability of being
	// up in place of p.
	Override map[int]float64
	// Progress, if not nil, is told the name of each figure as it starts.
	Progress set.Progress
}

// Config is the verdict on a replicated system's configuration: whether
// every read quorum meets every write quorum (Safe; otherwise Meet holds a
// pair that does not meet), how many node failures each side survives,
// what losing whole domains does, and the availability.
type Config struct {
	Cfg *systems.Config
	// Sys is the configuration as a read-write system.
	Sys  *rw.System
	Safe bool
	Meet rw.Intersection
	// Read and Write are the resilience of each side with a smallest set
	// of nodes whose failure stops it.
	Read, Write rw.Resilience
	// Domains is what losing whole outermost domains does; nil when the
	// configuration names none.
	Domains *systems.DomainLoss
	// Availability is that of reads and writes at each of Points.
	Availability []rw.AvPoint
}

// CheckConfig returns the verdict on cfg, with package rw's checks on its
// quorums (listed, at most rw.DefaultListLimit of them, unless its rules
// are formulas) and package systems' domain analysis. A failure is a
// *[FigureError] (Quorums when the quorums cannot be listed), or rw's
// error when the configuration is not a read-write system.
func CheckConfig(ctx context.Context, cfg *systems.Config, o ConfigOptions) (*Config, error) {
	stage := func(f Figure) {
		if o.Progress != nil {
			o.Progress(f.String(), 0, -1)
		}
	}
	fail := func(f Figure, err error) (*Config, error) { return nil, &FigureError{Figure: f, Err: err} }
	nodes := rw.DefaultNodes(cfg.N())
	for i := range nodes {
		nodes[i].Label = cfg.Labels[i]
	}
	for v, p := range o.Override {
		nodes[v].P = new(big.Rat).SetFloat64(p)
	}
	var sys *rw.System
	var err error
	if cfg.ReadExpr != nil {
		sys, err = rw.NewContext(ctx, cfg.N(), cfg.ReadExpr, cfg.WriteExpr, nodes)
	} else {
		stage(Quorums)
		var reads, writes *set.Family
		if reads, writes, err = cfg.Families(ctx, rw.DefaultListLimit); err != nil {
			return fail(Quorums, err)
		}
		sys, err = rw.FromFamilies(ctx, reads, writes, nodes)
	}
	if err != nil {
		return nil, err
	}
	r := &Config{Cfg: cfg, Sys: sys}
	stage(Intersection)
	if r.Meet, err = sys.ReadWrite(ctx, rw.DefaultListLimit); err != nil {
		return fail(Intersection, err)
	}
	r.Safe = r.Meet.OK
	stage(ReadResilience)
	if r.Read, err = sys.ReadResilience(ctx); err != nil {
		return fail(ReadResilience, err)
	}
	stage(WriteResilience)
	if r.Write, err = sys.WriteResilience(ctx); err != nil {
		return fail(WriteResilience, err)
	}
	stage(DomainResilience)
	if r.Domains, err = cfg.DomainFailures(ctx); err != nil {
		return fail(DomainResilience, err)
	}
	stage(Availability)
	if r.Availability, err = sys.AvailabilityAt(ctx, o.Points, rw.AvailabilityOptions{Limit: rw.DefaultListLimit}); err != nil {
		return fail(Availability, err)
	}
	return r, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// drawRW is a read-write system as draw reads it: whole (--down does not
// remove the dead quorums: they are drawn grey), with its failure domains
// and the parts --down failed.
type drawRW struct {
	sys *rw.System
	ld  *rwLoaded
	// domains are the failed domains among what --down names.
	domains []int
	// plain is the file read as a coterie file, with its kind and
	// params (nil for expressions, read-write files and configurations):
	// a side with its quorums is drawn as plain, in the layout its kind
	// calls for.
	plain *set.Family
	// noQuorum, when not nil, is the exit-1 error to return once the
	// drawing is written: no read or write quorum survives --down.
	noQuorum error
}

// loadDrawRW reads the read-write system of draw with its domains and
// --down, which it checks but does not apply.
func loadDrawRW(s *streams, o drawOptions, path string) (*drawRW, error) {
	ctx := context.Background()
	if o.in.cmd != nil && o.in.cmd.Context() != nil {
		ctx = o.in.cmd.Context()
	}
	var args []string
	if path != "" {
		args = []string{path}
	}
	ro := o.side.rw
	ro.down = ""
	ro.anyK = true // a k-arbiter is drawn by its quorums, as without --down
	ld, err := loadRWDomains(ctx, s, ro, o.in, args)
	if err != nil {
		return nil, err
	}
	dr := &drawRW{sys: ld.full, ld: ld}
	if path != "" && path != "-" && o.side.rw.reads == "" && o.side.rw.writes == "" {
		in := o.in
		in.side = nil
		if sys, err := readInput(s, path, in); err == nil && sys.Family != nil && !construct.Held(sys.Family) {
			dr.plain = sys.Family
		}
	}
	if o.side.rw.down == "" {
		return dr, nil
	}
	if ld.down, ld.downNames, err = parseDown(o.side.rw.down, ld.full, ld.tree); err != nil {
		return nil, err
	}
	if ld.tree != nil {
		for _, name := range ld.downNames {
			if dm, ok := ld.tree.Lookup(strings.TrimSpace(name)); ok {
				dr.domains = append(dr.domains, dm)
			}
		}
	}
	ld.sys, err = ld.full.Without(ld.down)
	if errors.Is(err, rw.ErrNoQuorum) {
		side := "read"
		if ld.full.Reads.Expr.Without(ld.down) != nil {
			side = "write"
		}
		dr.noQuorum = &codeError{code: exitFailed, err: fmt.Errorf("with %s down, no %s quorum survives", strings.Join(ld.downNames, ", "), side)}
	} else if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return dr, nil
}

// sides lists the sides to draw: side is reads, writes or both.
func (dr *drawRW) sides(side string, limit int) ([]set.System, error) {
	if side == "" {
		side = "reads"
	}
	names := []string{side}
	switch side {
	case "both":
		names = []string{"reads", "writes"}
	case "reads", "writes":
	default:
		return nil, usageErrorf("--side must be reads or writes, not %q", side)
	}
	var out []set.System
	for _, name := range names {
		f, err := listSide(dr.sys, name, limit)
		if err != nil {
			return nil, err
		}
		if p := dr.plain; p != nil {
			q := p
			if isThreshold(p) {
				q, _ = p.Enumerate(limit)
			}
			if q != nil && set.SameQuorums(q, f) {
				p = p.Clone()
				if f.Labels != nil {
					p.Labels = f.Labels
				}
				f = p
			}
		}
		out = append(out, set.System{Family: f})
	}
	return out, nil
}

// options adds the domains and the failures to the options of a drawing.
func (dr *drawRW) options(opts draw.Options) draw.Options {
	if dr == nil {
		return opts
	}
	opts.Domains = dr.ld.tree
	if dr.ld.down != nil {
		opts.Down = dr.ld.down.Elements()
		opts.DownDomains = dr.domains
		opts.DownNames = dr.ld.downNames
	}
	return opts
}

// exitErr is the error draw returns once the drawing is written.
func (dr *drawRW) exitErr() error {
	if dr == nil {
		return nil
	}
	return dr.noQuorum
}

// checkInputFlags makes the checks of --input-format and --base that
// reading a system makes first.
func checkInputFlags(path string, in inputOptions) error {
	if in.format != "" && !isSystemFormat(in.format) {
		if _, err := inputFormat(path, nil, in.format); err != nil {
			return err
		}
	}
	if in.base != 0 && in.base != 1 {
		return usageErrorf("--base must be 0 or 1, not %d", in.base)
	}
	return nil
}

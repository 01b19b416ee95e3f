package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// sideOptions let a command that works on one list of quorums take a
// read-write system (--reads/--writes/--nodes, or a read-write file): it
// then works on the side --side names.
type sideOptions struct {
	rw   rwOptions
	side string
	// sameSides refuses a system whose read and write quorums differ
	// (the protocols simulate coteries).
	sameSides bool
}

// sideInput are the flags of a command that reads one list of quorums:
// a file's format, and a read-write system's side.
type sideInput struct {
	in   inputOptions
	side sideOptions
}

// addSideInputFlags adds the input flags (--input-format, --base) and the
// side flags (see [addSideFlags]).
func addSideInputFlags(cmd *cobra.Command, o *sideInput, side string) {
	addInputFlags(cmd, &o.in)
	addSideFlags(cmd, &o.in, &o.side, side)
}

// addSideFlags adds --reads, --writes, --nodes and --side (default side)
// and routes in's reads through o.
func addSideFlags(cmd *cobra.Command, in *inputOptions, o *sideOptions, side string) {
	in.side = o
	o.rw.limit = rw.DefaultListLimit
	cmd.Flags().StringVar(&o.rw.reads, "reads", "", "read quorums as an expression, e.g. 'a*b*c + d*e*f' (alone: the writes are its dual)")
	cmd.Flags().StringVar(&o.rw.writes, "writes", "", "write quorums as an expression (alone: the reads are its dual)")
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of node attributes (labels number the nodes)")
	if !o.sameSides {
		cmd.Flags().StringVar(&o.side, "side", side, "for a read-write system, the side to use: reads|writes")
		_ = cmd.RegisterFlagCompletionFunc("side", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"reads", "writes"}, cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// fileOrRW accepts one file, or none when --reads or --writes is given.
func fileOrRW(cmd *cobra.Command, args []string) error {
	if cmd.Flags().Changed("reads") || cmd.Flags().Changed("writes") {
		return argsBetween("one quorum FILE at most with --reads/--writes", 0, 1)(cmd, args)
	}
	return argsBetween("a quorum FILE (or --reads EXPR)", 1, 1)(cmd, args)
}

// firstArg returns args[0], or "" when there is none (--reads given).
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// wanted reports whether the command should read a read-write system.
func (o *sideOptions) wanted(cmd *cobra.Command, s *streams, path string) bool {
	if cmd == nil {
		return false
	}
	var args []string
	if path != "" {
		args = []string{path}
	}
	return rwWanted(cmd, s, args)
}

// system reads the read-write system and returns its chosen side as a
// coterie file would hold it.
func (o *sideOptions) system(ctx context.Context, s *streams, path string, in inputOptions) (set.System, error) {
	side := o.side
	if side == "" {
		side = "reads"
	}
	if side != "reads" && side != "writes" {
		return set.System{}, usageErrorf("--side must be reads or writes, not %q", o.side)
	}
	var args []string
	if path != "" {
		args = []string{path}
	}
	sys, err := loadRW(ctx, s, o.rw, in, args)
	if err != nil {
		return set.System{}, err
	}
	f, err := listSide(sys, side, o.rw.limit)
	if err != nil {
		return set.System{}, err
	}
	if o.sameSides {
		w, err := listSide(sys, "writes", o.rw.limit)
		if err != nil {
			return set.System{}, err
		}
		if !set.SameQuorums(f, w) {
			return set.System{}, usageErrorf("the read and write quorums differ: the protocols simulated are for coteries (R = W)")
		}
	}
	return set.System{Family: f}, nil
}

// listSide lists a side's minimal quorums as a labelled coterie-style
// family (see [rw.System.SideQuorums]).
func listSide(sys *rw.System, side string, limit int) (*set.Family, error) {
	sd := &sys.Reads
	if side == "writes" {
		sd = &sys.Writes
	}
	f, err := sys.SideQuorums(sd, limit)
	if err != nil {
		return nil, usageErrorf("--side %s: more than %d quorums to list", side, limit)
	}
	return f, nil
}

// runRWDomination judges a read-write system's sides: side is reads,
// writes or "" for both.
func runRWDomination(ctx context.Context, s *streams, o *sideOptions, in inputOptions, args []string, asJSON bool) error {
	if o.side != "" && o.side != "reads" && o.side != "writes" {
		return usageErrorf("--side must be reads or writes, not %q", o.side)
	}
	sys, err := loadRW(ctx, s, o.rw, in, args)
	if err != nil {
		return err
	}
	inter, err := sys.ReadWrite(ctx, o.rw.limit)
	if err != nil {
		return usageErrorf("%v", err)
	}
	rep := jsonreport.RWDomination{Intersection: inter.OK}
	if !inter.OK {
		fmt.Fprintf(s.err, "coterie: read quorum %s misses write quorum %s: not a read-write quorum system\n", labelledSet(sys, inter.Read), labelledSet(sys, inter.Write))
		return failed()
	}
	judge := func(side, other *rw.Side) (*jsonreport.SideVerdict, error) {
		ok, witness, err := sys.Nondominated(ctx, side, other, o.rw.limit)
		switch {
		case errors.Is(err, set.ErrTooMany):
			return nil, usageErrorf("more than %d minimal transversals to check", o.rw.limit)
		case err != nil:
			return nil, err
		}
		return jsonreport.NewSideVerdict(ok, witness), nil
	}
	if o.side != "writes" {
		if rep.Reads, err = judge(&sys.Reads, &sys.Writes); err != nil {
			return err
		}
	}
	if o.side != "reads" {
		if rep.Writes, err = judge(&sys.Writes, &sys.Reads); err != nil {
			return err
		}
	}
	return writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			return writeJSON(w, rep)
		}
		for _, x := range []struct {
			name, other string
			v           *jsonreport.SideVerdict
		}{{"reads", "write", rep.Reads}, {"writes", "read", rep.Writes}} {
			if x.v == nil {
				continue
			}
			one := strings.TrimSuffix(x.name, "s")
			if x.v.Nondominated {
				fmt.Fprintf(w, "%s: nondominated: every set that meets all %s quorums holds a %s quorum\n", x.name, x.other, one)
				continue
			}
			q := set.New(sys.N)
			for _, v := range x.v.Witness {
				q.Add(v - 1)
			}
			fmt.Fprintf(w, "%s: dominated: %s meets every %s quorum and holds no %s quorum (add it as a %s quorum)\n", x.name, labelledSet(sys, q), x.other, one, one)
		}
		return nil
	})
}

// labelledSet prints a set of nodes with the system's labels: {a b c}.
func labelledSet(sys *rw.System, q *set.Set) string {
	var parts []string
	for v := range q.All() {
		parts = append(parts, sys.Label(v))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

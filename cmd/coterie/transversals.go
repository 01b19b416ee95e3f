package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/set"
)

type transversalsOptions struct {
	sideInput
	count  bool
	asJSON bool
	limit  int64
	// --shard, --shards, --checkpoint (with --count): transversals_shard.go.
	shard      string
	shards     string
	checkpoint string
}

func newTransversalsCmd(s *streams) *cobra.Command {
	var o transversalsOptions
	cmd := &cobra.Command{
		Use:   "transversals FILE",
		Short: "List or count the minimal transversals (blocking sets)",
		Long: `List the minimal transversals of a quorum system: the minimal sets of nodes
that meet every quorum. If every node of one fails, no quorum is left; the
smallest size, minus one, is the system's resilience. The listing streams one
transversal per line (node ids, or labels, separated by spaces; with --json,
one JSON array per line), in a fixed order; --count counts them by size on
every core without listing. The algorithm is MMCS (Murakami and Uno, 2014).
Threshold systems (every w-subset) have every (n−w+1)-subset as minimal
transversal, counted by formula.

A read-write system (--reads EXPR [--writes EXPR], --nodes, or a read-write
file) is taken by one side, --side reads (default) or writes: the minimal
transversals of the read quorums are the optimal write quorums (and of the
writes, the optimal reads).

Long counts: with --count, --shard I/N counts one share of the search (its
pieces, fixed by the family alone) and prints a partial result that 'coterie
merge' adds up to exactly what the unsplit count prints (--shard auto takes I
from a Kubernetes Indexed Job or a Slurm array, with --shards N); --checkpoint
FILE saves the count after each piece (at most once a second) and resumes from
it. A shard stopped by --timeout or Ctrl-C prints no part, only a note of the
pieces done.

  coterie transversals plane.json --count
  coterie transversals grid.json --count --shard 2/3 > part-2.json
  coterie transversals grid.txt | head
  coterie transversals --reads 'a*b*c + d*e*f'        # the optimal writes`,
		Args: fileOrRW,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTransversals(cmd.Context(), s, firstArg(args), &o)
		},
	}
	addSideInputFlags(cmd, &o.sideInput, "reads")
	cmd.Flags().BoolVar(&o.count, "count", false, "count the minimal transversals by size instead of listing them")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON: one array per transversal, or with --count the contract's report")
	addOutputFlag(cmd, s)
	cmd.Flags().Int64Var(&o.limit, "limit", 0, "list at most this many transversals (0 = all); a note on stderr says when the list was cut")
	cmd.Flags().StringVar(&o.shard, "shard", "", "with --count, count shard `I/N` of the search (or auto: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with --shards) and print a partial result for 'coterie merge'")
	cmd.Flags().StringVar(&o.shards, "shards", "", shardsUsage)
	cmd.Flags().StringVar(&o.checkpoint, "checkpoint", "", "with --count, save the count piece by piece in `FILE`, and resume from it")
	return cmd
}

func runTransversals(ctx context.Context, s *streams, path string, o *transversalsOptions) error {
	sys, err := readSystem(s, path, o.in)
	if err != nil {
		return err
	}
	if sys.HK != nil {
		return usageErrorf("transversals takes one list of quorums; this is an (h,k)-arbiter: convert one level to its own file")
	}
	f := sys.Family
	if o.shard != "" || o.shards != "" || o.checkpoint != "" {
		if !o.count {
			return usageErrorf("--shard, --shards and --checkpoint go with --count")
		}
		return runTransversalsSharded(ctx, s, path, f, o)
	}
	if o.count {
		p := newProgress(s, "transversals: counting (subtrees searched)")
		c, err := domination.CountTransversalsOpt(ctx, f, domination.Options{Progress: func(_ string, done, total int64) { p.Update(done, total) }})
		p.Done()
		if err != nil && (c == nil || !c.Partial) {
			return err
		}
		// A partial count (--timeout, Ctrl-C) is printed, marked, before
		// the error that ends the command.
		werr := writeTransversalCount(s, displayName(path), c, o.asJSON)
		if err != nil {
			return err
		}
		return werr
	}
	if o.limit < 0 {
		return usageErrorf("--limit must not be negative")
	}
	var listed int64
	cut := false
	p := newProgress(s, "transversals: listing")
	defer p.Done()
	werr := writeOutput(s, "", func(bw io.Writer) error {
		return listTransversals(ctx, bw, f, o, p, &listed, &cut)
	})
	p.Done()
	if cut {
		fmt.Fprintf(s.err, "coterie: listed the first %d minimal transversals (--limit); there are more: --count counts them all\n", o.limit)
	}
	return werr
}

// listTransversals writes the minimal transversals, one a line, up to
// --limit (cut says the list was cut there).
func listTransversals(ctx context.Context, bw io.Writer, f *set.Family, o *transversalsOptions, p *progress, listed *int64, cut *bool) error {
	var line []byte
	for t, lerr := range domination.MinimalTransversals(ctx, f, domination.Options{}) {
		if lerr != nil {
			return lerr
		}
		if o.limit > 0 && *listed == o.limit {
			*cut = true
			return nil
		}
		*listed++
		p.Update(*listed, -1)
		line = line[:0]
		if o.asJSON {
			line = append(line, '[')
		}
		first := true
		for v := range t.All() {
			if !first {
				if o.asJSON {
					line = append(line, ',', ' ')
				} else {
					line = append(line, ' ')
				}
			}
			first = false
			if o.asJSON || f.Labels == nil {
				line = strconv.AppendInt(line, int64(v+1), 10)
			} else {
				line = append(line, f.Labels[v]...)
			}
		}
		if o.asJSON {
			line = append(line, ']')
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return nil
}

func sortedSizes(c *domination.TransversalCount) []int {
	sizes := make([]int, 0, len(c.BySize))
	for size := range c.BySize {
		sizes = append(sizes, size)
	}
	slices.Sort(sizes)
	return sizes
}

func countText(w io.Writer, name string, c *domination.TransversalCount) error {
	if c.Partial {
		fmt.Fprintf(w, "%s: partial count, the search stopped before the end: at least %s minimal transversals", name, c.Total)
		if c.Smallest >= 0 {
			fmt.Fprintf(w, "; the smallest found has %d nodes (resilience at most %d)", c.Smallest, c.Smallest-1)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "%s: %s minimal transversals", name, c.Total)
		if c.Smallest >= 0 {
			fmt.Fprintf(w, "; the smallest has %d nodes (resilience %d)", c.Smallest, c.Smallest-1)
		}
		fmt.Fprintln(w)
	}
	rows := [][]string{}
	for _, size := range sortedSizes(c) {
		n := c.BySize[size].String()
		if c.Partial {
			n = "at least " + n
		}
		rows = append(rows, []string{strconv.Itoa(size), n})
	}
	if len(rows) == 0 {
		return nil
	}
	return renderTable(w, []string{"size", "minimal transversals"}, rows)
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

type quorumsOptions struct {
	rwInput
	side   string
	labels bool
	count  bool
}

func newQuorumsCmd(s *streams) *cobra.Command {
	var o quorumsOptions
	cmd := &cobra.Command{
		Use:   "quorums [FILE]",
		Short: "List the minimal read or write quorums of a read-write system",
		Long: `List the minimal quorums of one side of a read-write system, one per line
(node ids separated by spaces, or labels with --labels), as they are found:
the listing is lazy, so --limit N stops after N quorums however many there
are. The writes of --reads alone are its dual, listed from the dual
expression. --count prints how many there are instead, by formula for an
expression that uses each node once.`,
		Example: `  coterie quorums --reads 'a*b*c + d*e*f' --side writes --labels
  coterie quorums --reads 'choose(3, a, b, c, d, e)' --limit 4`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQuorums(cmd.Context(), s, o, args, cmd.Flags().Changed("limit"))
		},
	}
	addRWInputFlags(cmd, &o.rwInput)
	cmd.Flags().StringVar(&o.side, "side", "reads", "which quorums: reads|writes")
	cmd.Flags().BoolVar(&o.labels, "labels", false, "print node labels instead of ids")
	cmd.Flags().BoolVar(&o.count, "count", false, "print the number of minimal quorums")
	addOutputFlag(cmd, s)
	return cmd
}

func runQuorums(ctx context.Context, s *streams, o quorumsOptions, args []string, limited bool) error {
	if o.side != "reads" && o.side != "writes" {
		return usageErrorf("--side must be reads or writes, not %q", o.side)
	}
	sys, err := loadRW(ctx, s, o.rw, o.in, args)
	if err != nil {
		return err
	}
	sd := &sys.Reads
	if o.side == "writes" {
		sd = &sys.Writes
	}
	if o.count {
		c, err := sd.Count(ctx)
		if err != nil {
			return err
		}
		return printLine(s, c)
	}
	limit := 0
	if limited {
		if o.rw.limit < 1 {
			return usageErrorf("--limit must be at least 1")
		}
		limit = o.rw.limit
	}
	return writeOutput(s, "", func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		defer bw.Flush()
		n := 0
		print := func(q []int) error {
			parts := make([]string, len(q))
			for i, v := range q {
				if o.labels {
					parts[i] = sys.Label(v)
				} else {
					parts[i] = fmt.Sprint(v + 1)
				}
			}
			_, err := fmt.Fprintln(bw, strings.Join(parts, " "))
			return err
		}
		if sd.List != nil {
			for i := range sd.List.Quorums {
				if limit > 0 && n == limit {
					break
				}
				if err := print(sd.List.Quorums[i].Elements()); err != nil {
					return err
				}
				n++
			}
			return nil
		}
		for q := range sd.Expr.MinimalQuorums() {
			if limit > 0 && n == limit {
				break
			}
			if n%4096 == 4095 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := print(q.Elements()); err != nil {
				return err
			}
			n++
		}
		return nil
	})
}

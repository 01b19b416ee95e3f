package main

import (
	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/rw"
)

type convertOptions struct {
	in  inputOptions
	out outputOptions
	rw  rwOptions
	to  string
}

func newConvertCmd(s *streams) *cobra.Command {
	var o convertOptions
	cmd := &cobra.Command{
		Use:   "convert IN -o OUT",
		Short: "Convert a quorum file between JSON, text, CSV and .dat",
		Long: `Read a quorum file and write it in another format, chosen by the output's
extension (.json, .txt or .q, .csv, .dat) or --format. "-" is standard input or
output. Formats that cannot hold something (the .dat format keeps only the
quorums) say so on stderr.

A read-write system (--reads EXPR [--writes EXPR], --nodes for labels, or a
read-write file) is written as a read-write JSON or text file: a side given
as an expression stays an expression, a listed side a list, and a side
derived as the dual of the other is left out (reading derives it again).
CSV and .dat hold one list of quorums and are refused (exit 2); list a side
with 'coterie quorums --side reads|writes'.

  coterie convert plane.json -o plane.dat
  coterie convert grid.txt --format csv
  coterie convert hqc.json --to zookeeper -o zoo.cfg.dynamic`,
		Args: fileOrRW,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.to != "" {
				return runConvertTo(cmd.Context(), s, cmd, o.to, o.in, o.out, args)
			}
			if rwWanted(cmd, s, args) {
				return runRWConvert(cmd.Context(), s, o.rw, o.in, o.out, args)
			}
			sys, err := readSystem(s, args[0], o.in)
			if err != nil {
				return err
			}
			f, err := o.out.prepare(cmd.Context(), &sys)
			if err != nil {
				return err
			}
			return o.out.write(s, sys, f)
		},
	}
	addInputFlags(cmd, &o.in)
	addOutputFlags(cmd, &o.out)
	addConvertToFlag(cmd, &o.to)
	o.rw.limit = rw.DefaultListLimit
	cmd.Flags().StringVar(&o.rw.reads, "reads", "", "read quorums as an expression (alone: the writes are its dual)")
	cmd.Flags().StringVar(&o.rw.writes, "writes", "", "write quorums as an expression (alone: the reads are its dual)")
	cmd.Flags().StringVar(&o.rw.nodes, "nodes", "", "CSV of node attributes (its labels number the nodes)")
	addDomainsFlag(cmd, &o.rw)
	return cmd
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/format"
)

type convertOptions struct {
	in  inputOptions
	out outputOptions
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

  coterie convert plane.json -o plane.dat
  coterie convert grid.txt --format csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sys, err := readSystem(s, args[0], o.in)
			if err != nil {
				return err
			}
			f, err := o.out.prepare(cmd.Context(), &sys)
			if err != nil {
				return err
			}
			return writeSystemProgress(s, o.out.path, sys, f, format.Options{Base: o.out.base}, o.out.progress)
		},
	}
	addInputFlags(cmd, &o.in)
	addOutputFlags(cmd, &o.out)
	return cmd
}

package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/draw"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

type drawOptions struct {
	sideInput
	out       string
	layout    string
	quorum    int
	highlight string
	labels    bool
	scale     float64
	theme     string
}

func newDrawCmd(s *streams) *cobra.Command {
	var o drawOptions
	cmd := &cobra.Command{
		Use:   "draw FILE -o OUT.svg|OUT.png|OUT.pdf",
		Short: "Draw a system: incidence matrix, grid, billiard board, plane or cube",
		Long: `Draw the system in FILE as SVG, PNG or PDF (by the extension of -o; without
-o, SVG on standard output).

Layouts (--layout, default auto: chosen from the system's kind and structure):
  matrix    nodes × quorums, quorums sorted by their node lists (any system)
  grid      Maekawa's grid: nodes at lattice positions, a quorum's row and column
  billiard  the modified q×q board with each quorum's broken path (Agrawal,
            Eğecioğlu and El Abbadi, Fig. 6)
  plane     the Fano plane as the triangle with its inscribed circle; larger
            projective planes with the points on a circle
  cube      the a^(k+1) lattice of a (k+1)-cube k-arbiter, k ≤ 2
  tree      the tree of a tree system, root on top
  hqc       hierarchical quorum consensus as nested groups
  rows      a crumbling wall, the triangle or the wheel as its rows
auto also draws a threshold system (majority) as its nodes on a circle, and
Kuo's join as the outer system with the joined node expanded. Grid and cube
share one orientation: node 1 top left, node 2 to its right.

Every node carries its number (and a tooltip in SVG); --labels also writes
the nodes' labels beside them, where they cover nothing. --quorum I fills
the I-th quorum (1-based, in file order) in blue and --highlight the nodes
given in red, such as the witness of 'domination --json' or a failure set;
a legend under the drawing says which is which. Lines and paths take
colours safe for colour-blind readers, and dash patterns once the colours
run out. --theme dark draws light on dark.

An (h,k)-arbiter is drawn by its lowest level. A read-write system
(--reads EXPR [--writes EXPR], --nodes, or a read-write file) is drawn by one
side: --side reads (default) or writes, or both side by side.

Failure domains (the domain, or region/zone/rack, columns of --nodes) are
drawn as labelled boxes around their nodes, nested like the tree, when the
layout keeps each domain's nodes apart; otherwise each node wears a ring in
its domain's colour per level, named in the legend; the matrix marks each
domain's rows. --down NODES_OR_DOMAINS greys the failed nodes and domains
and every dead quorum (one holding a failed node); when no quorum survives
the drawing says so and draw exits 1, as info does. PNG output is
--scale pixels per unit (default 2). The same input gives the same bytes.`,
		Example: `  coterie generate fpp --order 2 -o fano.json && coterie draw fano.json -o fano.svg
  coterie draw --reads 'a*b*c + d*e*f' --side both --highlight a -o rw.svg
  coterie draw grid.json -o grid.png --quorum 5
  coterie draw grid.json --nodes nodes.csv --down zone-a -o zones.svg
  coterie draw plane.json -o witness.pdf --layout matrix --highlight 1,4,7 --labels`,
		Args: fileOrRW,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDraw(s, o, firstArg(args))
		},
	}
	addSideInputFlags(cmd, &o.sideInput, "reads")
	addDomainsFlag(cmd, &o.side.rw)
	addDownFlag(cmd, &o.side.rw)
	f := cmd.Flags()
	f.Lookup("side").Usage = "for a read-write system, the side to draw: reads|writes|both (side by side)"
	f.StringVarP(&o.out, "output", "o", "", "write the drawing to `OUT.svg`, OUT.png or OUT.pdf (default: SVG on standard output)")
	f.StringVar(&o.layout, "layout", "auto", "layout: "+strings.Join(draw.Layouts(), ", "))
	f.IntVar(&o.quorum, "quorum", 0, "highlight quorum `I` (1-based position in the file)")
	f.StringVar(&o.highlight, "highlight", "", "highlight the nodes `1,4,7` (numbers 1..n or labels)")
	f.BoolVar(&o.labels, "labels", false, "write node labels beside the nodes")
	f.Float64Var(&o.scale, "scale", draw.DefaultPNGScale, "PNG pixels per drawing unit (0 < `S` ≤ 16)")
	f.StringVar(&o.theme, "theme", "light", "colours: "+strings.Join(draw.Themes(), " or "))
	_ = cmd.RegisterFlagCompletionFunc("theme", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return draw.Themes(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("layout", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return draw.Layouts(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// drawFormats are the formats draw writes, by extension.
var drawFormats = []string{"svg", "png", "pdf"}

func runDraw(s *streams, o drawOptions, path string) error {
	ext := "svg"
	if o.out != "" && o.out != "-" {
		ext = strings.TrimPrefix(strings.ToLower(filepath.Ext(o.out)), ".")
		if !slices.Contains(drawFormats, ext) {
			return usageErrorf("-o %s: the file name must end in .svg, .png or .pdf", o.out)
		}
	}
	if !slices.Contains(draw.Layouts(), o.layout) {
		return usageErrorf("--layout must be one of %s, not %q", strings.Join(draw.Layouts(), ", "), o.layout)
	}
	if o.quorum < 0 {
		return usageErrorf("--quorum must be a positive quorum number, not %d", o.quorum)
	}
	if !slices.Contains(draw.Themes(), o.theme) {
		return usageErrorf("--theme must be one of %s, not %q", strings.Join(draw.Themes(), ", "), o.theme)
	}
	if !(o.scale > 0 && o.scale <= 16) {
		return usageErrorf("--scale must be a number in (0, 16], not %v", o.scale)
	}
	var sides []set.System
	var headings []string
	var dr *drawRW // the read-write system, with its domains and --down
	if o.side.side == "both" {
		if o.quorum > 0 {
			return usageErrorf("--quorum numbers the quorums of one side: use --side reads or --side writes")
		}
		if !o.side.wanted(o.in.cmd, s, path) {
			return usageErrorf("--side both is for a read-write system (--reads/--writes or a read-write file)")
		}
		var err error
		if dr, err = loadDrawRW(s, o, path); err != nil {
			return err
		}
		if sides, err = dr.sides("both", o.side.rw.limit); err != nil {
			return err
		}
		headings = []string{"read quorums", "write quorums"}
	} else if o.side.wanted(o.in.cmd, s, path) {
		if err := checkInputFlags(path, o.in); err != nil {
			return err
		}
		var err error
		if dr, err = loadDrawRW(s, o, path); err != nil {
			return err
		}
		if sides, err = dr.sides(o.side.side, o.side.rw.limit); err != nil {
			return err
		}
	} else {
		sys, err := readSystem(s, path, o.in)
		if err != nil {
			return err
		}
		sides = []set.System{sys}
	}
	var scenes []*draw.Scene
	for _, sys := range sides {
		nodes, err := format.ParseNodeList(o.highlight, sys.N(), sys.Labels())
		if err != nil {
			return usageErrorf("--highlight: %v", err)
		}
		sc, err := draw.Draw(sys, dr.options(draw.Options{Layout: o.layout, ShowQuorum: o.quorum > 0, Quorum: o.quorum - 1, Highlight: nodes,
			Labels: o.labels, Theme: o.theme, MaxCells: drawnCells(maxMemory(o.in.cmd))}))
		if errors.Is(err, draw.ErrThresholdQuorum) {
			err = errors.New("draw: a threshold system's quorums are not listed: --quorum needs --layout matrix")
		}
		if errors.Is(err, draw.ErrTooLarge) {
			err = fmt.Errorf("%w (%s)", err, budgetHint(o.in.cmd))
		}
		if err != nil {
			return &codeError{code: exitError, err: fmt.Errorf("%s: %w", displayName(path), err)}
		}
		scenes = append(scenes, sc)
	}
	sc := scenes[0]
	if len(scenes) > 1 {
		sc = draw.Beside("read and write quorums", headings, scenes...)
	}
	err := writeOutput(s, o.out, func(w io.Writer) error {
		switch ext {
		case "png":
			return sc.WritePNGScale(w, o.scale)
		case "pdf":
			return sc.WritePDF(w)
		}
		return sc.WriteSVG(w)
	})
	if err != nil {
		return err
	}
	return dr.exitErr()
}

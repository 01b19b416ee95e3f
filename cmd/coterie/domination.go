package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

type dominationOptions struct {
	sideInput
	out      outputOptions
	k        int
	asJSON   bool
	smallest bool
	makeND   bool
	// --shard, --shards, --checkpoint (with --smallest): domination_shard.go.
	shard      string
	shards     string
	checkpoint string
}

func newDominationCmd(s *streams) *cobra.Command {
	var o dominationOptions
	cmd := &cobra.Command{
		Use:   "domination FILE",
		Short: "Decide whether a coterie or k-arbiter is dominated, with a witness",
		Long: `Decide whether a coterie or k-arbiter is dominated: whether another one has
a quorum inside every quorum of it, and so is at least as available. When it
is, the witness is a set H of nodes that contains no quorum and meets every
quorum (for k > 1, every intersection of k quorums): Kuo's Theorems 1 and 2,
after Garcia-Molina and Barbara. Adding H as a quorum gives a better system.
Threshold systems (every w-subset) are decided by formula: dominated iff
(k+1)·w ≥ k·n + 2. The exit status is 0 whichever the verdict.

Structure in a list is recognised whatever the numbering and order of its
nodes and quorums, checked on the quorums, and decided by theorem: all
w-subsets of the nodes in use (the formula), the lines of a projective
plane (nondominated only for order 2), and Kuo's join of two systems
(nondominated iff both parts are, each decided in turn). The report names
it ("structure" in --json).

A family in which some quorum contains another is not minimal, so not a
coterie as defined; it is judged by its minimal form (the quorums that
contain no other), with a note on stderr.

--make-nd verifies the system it built (a k-arbiter, minimal,
nondominated) before writing it; if that fails, nothing is written, the
witness goes to stderr and the exit status is 1. With -o - the system goes
to stdout and the report to stderr, so the system can be piped on:
coterie domination x.json --make-nd -o - | coterie verify -

--smallest splits across machines: --shard I/N answers one share of the
solver's questions and prints a partial result, which 'coterie merge' puts
together with the others into exactly the unsplit report; --checkpoint FILE
saves the answers and resumes a stopped run.

A read-write system (--reads EXPR [--writes EXPR], or a read-write file) is
judged side by side: its reads are nondominated when every set that meets
all write quorums holds a read quorum (the reads are the minimal
transversals of the writes), and the same for the writes; otherwise the
witness is such a set, which could be added as a quorum. --side reads or
writes judges one side. A side derived as the dual of the other is always
nondominated. Read and write quorums that do not meet: exit status 1.

  coterie domination plane.json
  coterie domination plane.json --smallest --json
  coterie domination grid.json --make-nd -o better.json`,
		Args: fileOrRW,
		RunE: func(cmd *cobra.Command, args []string) error {
			if rwWanted(cmd, s, args) {
				if o.makeND || o.smallest || cmd.Flags().Changed("k") || o.shard != "" {
					return usageErrorf("--k, --smallest, --shard and --make-nd are for coteries and k-arbiters, not read-write systems")
				}
				return runRWDomination(cmd.Context(), s, &o.side, o.in, args, o.asJSON)
			}
			return runDomination(cmd.Context(), s, args[0], &o, cmd.Flags().Changed("k"))
		},
	}
	addSideInputFlags(cmd, &o.sideInput, "")
	cmd.Flags().IntVar(&o.k, "k", 1, "judge the system as a k-arbiter (default: the file's k)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&o.smallest, "smallest", false, "find a witness of minimum size, proved minimum (slow for large systems)")
	cmd.Flags().BoolVar(&o.makeND, "make-nd", false, "write a nondominated system that dominates this one to -o FILE")
	cmd.Flags().StringVar(&o.shard, "shard", "", "with --smallest, answer shard `I/N` of the candidate sizes (or auto: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with --shards) and print a partial result for 'coterie merge'")
	cmd.Flags().StringVar(&o.shards, "shards", "", shardsUsage)
	cmd.Flags().StringVar(&o.checkpoint, "checkpoint", "", "with --smallest, save the solver's answers size by size in `FILE`, and resume from it")
	addOutputFlags(cmd, &o.out)
	return cmd
}

// dominationReport is the report (jsonreport.Domination) with what its
// text says besides: the order of a plane the quorums were recognised as.
type dominationReport struct {
	jsonreport.Domination
	planeOrder int
}

func runDomination(ctx context.Context, s *streams, path string, o *dominationOptions, kSet bool) error {
	if o.makeND && o.out.path == "" {
		return usageErrorf("--make-nd writes a system: name it with -o FILE")
	}
	if !o.makeND && o.out.path != "" {
		return usageErrorf("-o is for --make-nd")
	}
	if o.k < 1 {
		return usageErrorf("--k must be at least 1, not %d", o.k)
	}
	sp, err := smallestShardSpec(o)
	if err != nil {
		return err
	}
	sys, err := readSystem(s, path, o.in)
	if err != nil {
		return err
	}
	if g, ok, err := materializeImplicit(ctx, sys.Family, o.out.limit); err != nil {
		return err
	} else if ok {
		implicitNote(s, displayName(path), g)
		sys.Family = g
	} else if construct.Held(g) {
		if sp.Count > 0 {
			return usageErrorf("--shard: %s is decided by formula, with nothing to split: run it whole", displayName(path))
		}
		return writeImplicitDomination(s, displayName(path), g, o)
	}
	f, err := judgedFamily(sys, o.k, kSet)
	if err != nil {
		return err
	}
	if !isThreshold(f) {
		g := f.Clone()
		dropped, err := g.MinimalizeContext(ctx)
		if err != nil {
			return err
		}
		if dropped > 0 {
			verb := "contain"
			if dropped == 1 {
				verb = "contains"
			}
			fmt.Fprintf(s.err, "coterie: note: %s is not minimal: %d of its %d quorums %s another quorum; judging its minimal form of %d quorums (the coterie it stands for)\n",
				displayName(path), dropped, f.Len(), verb, g.Len())
			f = g
			sys = set.System{Family: g}
		}
	}
	if err := checkArbiter(ctx, f); err != nil {
		return err
	}
	if sp.Count > 0 {
		return runSmallestShard(ctx, s, displayName(path), f, o, sp)
	}
	var r *domination.Result
	if o.smallest {
		if o.checkpoint != "" {
			r, err = smallestCheckpointed(ctx, s, f, o)
		} else {
			r, err = domination.DecideSmallest(ctx, f)
		}
		if err != nil && r != nil && r.Partial {
			// Stopped (--timeout, Ctrl-C) with a witness: print it and
			// the bound proved, marked partial, then the error.
			rep := dominationReport{Domination: jsonreport.Domination{K: r.K, Partial: true, LowerBound: r.LowerBound}}
			for v := range r.Witness.All() {
				rep.Witness = append(rep.Witness, v+1)
			}
			if werr := writeOutput(reportStreams(s, o.out.path), "", func(w io.Writer) error {
				if o.asJSON {
					return rep.json(w)
				}
				return rep.text(w, displayName(path), f)
			}); werr != nil {
				return werr
			}
			return err
		}
	} else {
		r, err = domination.Decide(ctx, f)
	}
	if err != nil {
		return err
	}
	rep := newDominationReport(r, o.smallest)
	if o.makeND {
		if err := makeND(ctx, s, sys, f, o, &rep); err != nil {
			return err
		}
	}
	// With -o - the system went to stdout: the report goes to stderr.
	return writeOutput(reportStreams(s, o.out.path), "", func(w io.Writer) error {
		if o.asJSON {
			return rep.json(w)
		}
		return rep.text(w, displayName(path), f)
	})
}

// newDominationReport is the report on r; smallest says whether
// --smallest was given (and finished).
func newDominationReport(r *domination.Result, smallest bool) dominationReport {
	return dominationReport{Domination: jsonreport.NewDomination(r, smallest), planeOrder: r.PlaneOrder}
}

// judgedFamily returns the family to judge: the file's coterie or
// k-arbiter, with k from --k when given.
func judgedFamily(sys set.System, k int, kSet bool) (*set.Family, error) {
	if sys.HK != nil {
		return nil, usageErrorf("domination is defined for coteries and k-arbiters; this is an (h,k)-arbiter (Manabe and Tajima leave its domination open): convert one level to its own file to judge it")
	}
	f := sys.Family
	if kSet {
		f = f.Clone()
		f.K = k
	}
	return f, nil
}

// makeND writes the nondominated system that dominates f to o.out.path.
func makeND(ctx context.Context, s *streams, sys set.System, f *set.Family, o *dominationOptions, rep *dominationReport) error {
	g := f
	if isThreshold(f) {
		if rep.Nondominated {
			g = f.Clone()
		} else {
			e := set.System{Family: f.Clone()}
			if err := enumerateThresholds(ctx, &e, o.out.limit); err != nil {
				return err
			}
			g = e.Family
		}
	}
	added := 0
	if !rep.Nondominated {
		var err error
		if g, added, err = domination.MakeND(ctx, g); err != nil {
			return err
		}
		// Check the result from scratch: a k-arbiter, minimal, and
		// nondominated.
		if err := verifyBuilt(ctx, s, "domination --make-nd", set.System{Family: g}); err != nil {
			return err
		}
		r, err := domination.Decide(ctx, g)
		if err != nil {
			return err
		}
		if !r.Nondominated {
			ids := []string{}
			for v := range r.Witness.All() {
				ids = append(ids, fmt.Sprint(v+1))
			}
			fmt.Fprintf(s.err, "coterie: domination --make-nd: the system built is still dominated (witness H = {%s}), so it is not written\n", strings.Join(ids, ", "))
			return failed()
		}
	}
	out := set.System{Family: g}
	ff, err := o.out.prepare(ctx, &out)
	if err != nil {
		return err
	}
	if err := o.out.write(s, out, ff); err != nil {
		return err
	}
	q := g.Len()
	rep.Added, rep.Quorums, rep.Output = &added, &q, o.out.path
	return nil
}

// json writes the report on one line, spaced as in docs/formats.md.
func (rep *dominationReport) json(w io.Writer) error {
	b, err := rep.Domination.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func (rep *dominationReport) text(w io.Writer, name string, f *set.Family) error {
	what := "coterie"
	if rep.K > 1 {
		what = fmt.Sprintf("%d-arbiter", rep.K)
	}
	if rep.Nondominated {
		fmt.Fprintf(w, "%s: nondominated %s: no set of nodes both contains no quorum and meets every %s\n",
			name, what, meetWhat(rep.K))
	} else {
		kind := "a minimal witness"
		if rep.Smallest {
			kind = "a smallest witness"
		}
		if rep.Partial {
			kind = "the smallest witness found"
		}
		ids := make([]string, len(rep.Witness))
		for i, v := range rep.Witness {
			ids[i] = f.Label(v - 1)
		}
		fmt.Fprintf(w, "%s: dominated %s\n", name, what)
		fmt.Fprintf(w, "witness H = {%s}: %s of %d nodes that contains no quorum and meets every %s\n",
			strings.Join(ids, ", "), kind, len(rep.Witness), meetWhat(rep.K))
		if rep.Smallest {
			fmt.Fprintf(w, "none is smaller (proof: %s): %s\n", rep.Proof, domination.ExplainProof(domination.Proof(rep.Proof), f, len(rep.Witness), rep.planeOrder))
		}
		if rep.Partial {
			fmt.Fprintf(w, "partial: stopped before proving it smallest; every witness has at least %d nodes, so the smallest has %d to %d\n",
				rep.LowerBound, rep.LowerBound, len(rep.Witness))
		}
	}
	if t := rep.structureText(f); t != "" {
		fmt.Fprintf(w, "structure: %s\n", t)
	}
	if rep.Added != nil {
		dest := rep.Output
		if dest == "-" {
			dest = "the system to standard output"
		}
		if *rep.Added == 0 {
			fmt.Fprintf(w, "wrote %s unchanged (%d quorums): it is already nondominated\n", dest, *rep.Quorums)
		} else {
			fmt.Fprintf(w, "wrote %s: %d quorums after adding %d witnesses; verified: a %s, nondominated\n",
				dest, *rep.Quorums, *rep.Added, what)
		}
	}
	return nil
}

// structureText says in a sentence what structure decided the verdict, or
// "" for the general engines.
func (rep *dominationReport) structureText(f *set.Family) string {
	inner := make([]string, len(rep.Inner))
	for i, v := range rep.Inner {
		inner[i] = f.Label(v - 1)
	}
	return domination.ExplainStructure(rep.Structure, rep.planeOrder, inner)
}

func meetWhat(k int) string {
	if k == 1 {
		return "quorum"
	}
	return fmt.Sprintf("intersection of %d quorums", k)
}

// checkArbiter refuses a system that is not a coterie (k-arbiter):
// domination is defined only for those.
func checkArbiter(ctx context.Context, f *set.Family) error {
	na, err := domination.CheckArbiter(ctx, f)
	switch {
	case err != nil:
		return err
	case na == nil:
		return nil
	case na.Threshold && !na.Listed:
		return usageErrorf("all %d-subsets of %d nodes do not form a %s: some %d of them share no node ((k+1)·w must exceed k·n)",
			na.W, na.Nodes, arbiterName(f.K), f.K+1)
	case na.Threshold:
		return usageErrorf("the quorums are all %d-subsets of %d nodes, which do not form a %s: some %d of them share no node ((k+1)·w must exceed k·n)",
			na.W, na.Nodes, arbiterName(f.K), f.K+1)
	}
	ids := make([]string, len(na.Quorums))
	for i, q := range na.Quorums {
		ids[i] = fmt.Sprint(q + 1)
	}
	return usageErrorf("not a %s: quorums %s share no node (see coterie verify); domination is defined only for %ss",
		arbiterName(f.K), strings.Join(ids, ", "), arbiterName(f.K))
}

func arbiterName(k int) string {
	if k == 1 {
		return "coterie"
	}
	return fmt.Sprintf("%d-arbiter", k)
}

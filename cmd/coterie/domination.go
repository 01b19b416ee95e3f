package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/format"
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

// dominationReport is the JSON report of docs/formats.md.
type dominationReport struct {
	Nondominated bool  `json:"nondominated"`
	K            int   `json:"k"`
	Witness      []int `json:"witness,omitempty"`
	Smallest     bool  `json:"smallest,omitempty"` // --smallest, dominated
	// Proof says how the witness was proved smallest (--smallest):
	// "solver", "bruen", "bruen+solver", "bruen+solver+symmetry" or
	// "closed-form" (see domination.Proof).
	Proof string `json:"proof,omitempty"`
	// PlaneOrder is q when the input was recognised as a projective plane.
	PlaneOrder int `json:"-"`
	// Support is the number of nodes in some quorum (for the exhaustive
	// proof's sentence).
	Support int `json:"-"`
	// Partial: --smallest stopped before proving its witness smallest;
	// LowerBound is what it had proved: no witness has fewer nodes.
	Partial    bool `json:"partial,omitempty"`
	LowerBound int  `json:"lower_bound,omitempty"`
	// Structure names what was recognised in the list and decided by
	// theorem ("threshold", "projective-plane", "join"; see
	// domination.Result.Structure); PlaneOrder (when Structure is
	// "projective-plane") and Inner (when "join", 1-based) say more.
	Structure string `json:"structure,omitempty"`
	Inner     []int  `json:"inner,omitempty"`
	// With --make-nd: the witnesses added and the written system's size.
	Added   *int   `json:"added,omitempty"`
	Quorums *int   `json:"quorums,omitempty"`
	Output  string `json:"output,omitempty"`
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
	} else if g != nil && g.IsImplicit() {
		if sp.Count > 0 {
			return usageErrorf("--shard: %s is decided by formula, with nothing to split: run it whole", displayName(path))
		}
		return writeImplicitDomination(s, displayName(path), g, o)
	}
	f, err := judgedFamily(sys, o.k, kSet)
	if err != nil {
		return err
	}
	if !f.IsThreshold() {
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
			rep := dominationReport{K: r.K, Partial: true, LowerBound: r.LowerBound}
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
	if rep.Smallest && !f.IsThreshold() {
		rep.Support = supportSize(f)
	}
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
	rep := dominationReport{Nondominated: r.Nondominated, K: r.K, Smallest: smallest && r.Smallest}
	if rep.Smallest {
		rep.Proof, rep.PlaneOrder = string(r.Proof), r.PlaneOrder
	}
	if r.Witness != nil {
		for v := range r.Witness.All() {
			rep.Witness = append(rep.Witness, v+1)
		}
	}
	rep.Structure = r.Structure
	if r.Structure == domination.StructurePlane {
		rep.PlaneOrder = r.PlaneOrder
	}
	if r.Inner != nil {
		for v := range r.Inner.All() {
			rep.Inner = append(rep.Inner, v+1)
		}
	}
	return rep
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
	if f.IsThreshold() {
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

// json writes the report on one line, spaced as in docs/formats.md:
// {"nondominated": false, "k": 1, "witness": [1, 2, 5]}.
func (rep *dominationReport) json(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, `{"nondominated": %t, "k": %d`, rep.Nondominated, rep.K)
	if rep.Witness != nil {
		ids := make([]string, len(rep.Witness))
		for i, v := range rep.Witness {
			ids[i] = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, `, "witness": [%s]`, strings.Join(ids, ", "))
	}
	if rep.Partial {
		fmt.Fprintf(&b, `, "smallest": false, "lower_bound": %d, "partial": true`, rep.LowerBound)
	}
	if rep.Smallest {
		b.WriteString(`, "smallest": true`)
		if rep.Proof != "" {
			proof, _ := jsonString(rep.Proof)
			fmt.Fprintf(&b, `, "proof": %s`, proof)
		}
	} else if rep.Proof == "theorem" {
		b.WriteString(`, "proof": "theorem"`) // an implicit family's verdict
	}
	if rep.Structure != "" {
		fmt.Fprintf(&b, `, "structure": %q`, rep.Structure)
		if rep.Inner != nil {
			ids := make([]string, len(rep.Inner))
			for i, v := range rep.Inner {
				ids[i] = fmt.Sprint(v)
			}
			fmt.Fprintf(&b, `, "inner": [%s]`, strings.Join(ids, ", "))
		}
	}
	if rep.Added != nil {
		out, _ := jsonString(rep.Output)
		fmt.Fprintf(&b, `, "added": %d, "quorums": %d, "output": %s`, *rep.Added, *rep.Quorums, out)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(format.EscapeJSONControls(b)), err
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
			fmt.Fprintf(w, "none is smaller (proof: %s): %s\n", rep.Proof, rep.proofText())
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
	switch rep.Structure {
	case domination.StructureThreshold:
		return "the quorums are all the subsets of one size of the nodes in use; decided by the threshold formula"
	case domination.StructurePlane:
		if rep.PlaneOrder == 2 {
			return "the quorums are the lines of a projective plane of order 2, which has no blocking set without a line"
		}
		return fmt.Sprintf("the quorums are the lines of a projective plane of order %d; every plane of order at least 3 has a blocking set without a line", rep.PlaneOrder)
	case domination.StructureJoin:
		ids := make([]string, len(rep.Inner))
		for i, v := range rep.Inner {
			ids[i] = f.Label(v - 1)
		}
		return fmt.Sprintf("a join (Kuo): the nodes {%s} carry an inner system; nondominated iff both parts are", strings.Join(ids, ", "))
	}
	return ""
}

// proofText explains rep.Proof in a sentence.
func (rep *dominationReport) proofText() string {
	size, q := len(rep.Witness), rep.PlaneOrder
	lb := domination.BruenBound(q)
	plane := fmt.Sprintf("the quorums are the lines of a projective plane of order %d", q)
	bruen := fmt.Sprintf("a blocking set of such a plane that contains no line has at least q+√q+1 points (Bruen 1970), so at least %d", lb)
	sizes := fmt.Sprint(lb)
	if size-1 > lb {
		sizes = fmt.Sprintf("%d to %d", lb, size-1)
	}
	switch domination.Proof(rep.Proof) {
	case domination.ProofClosedForm:
		return "every minimal witness of a threshold system has the same size"
	case domination.ProofSolver:
		return fmt.Sprintf("the SAT solver found no witness of %d nodes or fewer", size-1)
	case domination.ProofExhaustive:
		return fmt.Sprintf("every one of the 2^%d subsets of the %d nodes in quorums was checked", rep.Support, rep.Support)
	case domination.ProofBruen:
		return plane + "; " + bruen
	case domination.ProofBruenSolver:
		return fmt.Sprintf("%s; %s; the SAT solver found none of %s points", plane, bruen, sizes)
	case domination.ProofBruenSymmetry:
		return fmt.Sprintf("%s, isomorphic to PG(2,%d); %s; the SAT solver, searching up to the collineations of PG(2,%d), found none of %s points", plane, q, bruen, q, sizes)
	}
	return rep.Proof
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

// supportSize returns the number of nodes in some quorum of f.
func supportSize(f *set.Family) int {
	var u set.Set
	for i := range f.Quorums {
		u.Union(&u, &f.Quorums[i])
	}
	return u.Len()
}

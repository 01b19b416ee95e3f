package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// An implicit family (docs/formats.md) is a construction stored by its kind
// and params, without its quorums. availability and convert take it as it
// is; verify, info and domination list its quorums when there are at most
// implicitCheckLimit of them (--limit where the command has it) and judge
// the list, and otherwise answer from the construction; every other command
// refuses it.

// implicitCheckLimit is how many quorums verify, info and domination list
// to check an implicit family on its quorums.
const implicitCheckLimit = 100000

// implicitLimit is the most quorums of an implicit family that verify and
// info list: --limit when it is given, else implicitCheckLimit.
func implicitLimit(cmd *cobra.Command) int {
	if cmd != nil && cmd.Flags().Changed("limit") {
		if l, err := cmd.Flags().GetInt("limit"); err == nil {
			return l
		}
	}
	return implicitCheckLimit
}

// implicitCommands are the commands that read an implicit family.
var implicitCommands = []string{"availability", "convert", "domination", "info", "verify"}

// checkImplicitInput refuses an implicit family for a command that needs
// its quorums listed.
func checkImplicitInput(cmd *cobra.Command, name string, sys set.System) error {
	f := sys.Family
	if !construct.Held(f) || cmd != nil && slices.Contains(implicitCommands, cmd.Name()) {
		return nil
	}
	what := "this command"
	if cmd != nil {
		what = cmd.Name()
	}
	return usageErrorf("%s: an implicit %s family (%s): %s needs its quorums listed; list them with 'coterie convert %s --enumerate --limit N -o FILE' when there are few enough, or use availability, info, verify or domination, which take it as it is",
		name, f.Kind, implicitCount(f), what, name)
}

// implicitCount says how many quorums an implicit family has, in words.
func implicitCount(f *set.Family) string {
	c, ok := construct.Count(f)
	if !ok {
		return "its quorums are not counted without listing them"
	}
	return approxCount(c) + " quorums"
}

// materializeImplicit returns f listed when it is implicit and has at most
// limit quorums; ok is false when it has more (or is not implicit).
func materializeImplicit(ctx context.Context, f *set.Family, limit int) (g *set.Family, ok bool, err error) {
	if !construct.Held(f) {
		return f, false, nil
	}
	g, err = construct.MaterializeContext(ctx, f, limit)
	if errors.Is(err, set.ErrTooMany) {
		return f, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return g, true, nil
}

// enumerateImplicit lists an implicit family for convert and generate
// --enumerate, refusing above limit.
func enumerateImplicit(ctx context.Context, sys *set.System, limit int) error {
	f := sys.Family
	if !construct.Held(f) {
		return nil
	}
	g, ok, err := materializeImplicit(ctx, f, limit)
	if err != nil {
		return err
	}
	if !ok {
		return usageErrorf("the implicit %s family (%s) has more quorums than --limit %d: raise --limit, or keep the implicit form, which availability, info, verify and domination take",
			f.Kind, implicitCount(f), limit)
	}
	sys.Family = g
	return nil
}

// refuseImplicitDat refuses to write an implicit family as .dat.
func refuseImplicitDat(sys set.System) error {
	if f := sys.Family; construct.Held(f) {
		return usageErrorf("the .dat format lists quorums, and this is an implicit %s family (%s, defined by its parameters): add --enumerate (with --limit) when it is small enough, or write json, text or csv",
			f.Kind, implicitCount(f))
	}
	return nil
}

// implicitNote tells on stderr that an implicit family was listed to be
// checked.
func implicitNote(s *streams, name string, f *set.Family) {
	fmt.Fprintf(s.err, "coterie: note: %s: an implicit %s family; its %d quorums were listed from the construction and checked as a list\n",
		name, f.Kind, len(f.Quorums))
}

// implicitVerify prepares verify's input: an implicit family with at most
// implicitCheckLimit quorums is listed (and checked as a list); a larger
// one gets the report of its construction, rep != nil.
func implicitVerify(ctx context.Context, cmd *cobra.Command, s *streams, name string, sys *set.System, byzantine, otherK bool) (rep *verify.Report, listed bool, err error) {
	f := sys.Family
	if !construct.Held(f) {
		return nil, false, nil
	}
	limit := implicitLimit(cmd)
	g, ok, err := materializeImplicit(ctx, f, limit)
	if err != nil {
		return nil, false, err
	}
	if ok {
		implicitNote(s, name, g)
		sys.Family = g
		return nil, true, nil
	}
	if otherK {
		return nil, false, usageErrorf("%s: --k needs the quorums, and this implicit %s family has more than --limit %d (%s); by construction it is a coterie", name, f.Kind, limit, implicitCount(f))
	}
	if byzantine {
		return nil, false, usageErrorf("%s: --byzantine needs the quorums, and this implicit %s family has more than --limit %d (%s)", name, f.Kind, limit, implicitCount(f))
	}
	rep, err = verify.ByConstruction(f, verify.Options{ListLimit: limit, LimitName: "--limit"})
	if err != nil {
		return nil, false, err
	}
	return rep, false, nil
}

// implicitDomination returns the verdict on an implicit family too large to
// list, where a theorem gives it.
func implicitDomination(name string, f *set.Family, limit int) (*dominationReport, string, error) {
	if r, ok := domination.ByTheorem(f); ok {
		return &dominationReport{Domination: jsonreport.Domination{Nondominated: r.Nondominated, K: r.K, Proof: "theorem"}}, r.Theorem, nil
	}
	return nil, "", usageErrorf("%s: an implicit %s family with %s: no theorem gives its domination verdict here, and listing it for the algorithm exceeds the limit (--limit) of %d quorums",
		name, f.Kind, implicitCount(f), limit)
}

// implicitInfo is the info report of an implicit family too large to list.
type implicitInfo struct{ *jsonreport.ImplicitInfo }

// newImplicitInfo describes an implicit family from its construction.
func newImplicitInfo(f *set.Family, limit int) implicitInfo {
	return implicitInfo{jsonreport.NewImplicitInfo(f, limit)}
}

// table writes the report for people.
func (r implicitInfo) table(w io.Writer, name string) error {
	fmt.Fprintf(w, "%s: implicit %s %s\n", name, r.Kind, paramsString(r.Params))
	fmt.Fprintf(w, "  nodes        %d\n", r.N)
	if r.Quorums != nil {
		fmt.Fprintf(w, "  quorums      %s\n", approxCount(r.Quorums.V))
	} else {
		fmt.Fprintf(w, "  quorums      not counted\n")
	}
	if r.QuorumSize != nil {
		fmt.Fprintf(w, "  quorum size  %d..%d\n", r.QuorumSize.Min, r.QuorumSize.Max)
	}
	if r.Load != nil {
		fmt.Fprintf(w, "  load         %s = %.6g (closed form)\n  capacity     %.6g\n", r.LoadExact, *r.Load, *r.Capacity)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	return nil
}

// paramsString formats params as key=value pairs in key order.
func paramsString(p set.Params) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		v := fmt.Sprint(p[k])
		if len(v) > 40 {
			v = v[:37] + "…"
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// writeImplicitDomination reports the theorem's verdict on an implicit
// family too large to list.
func writeImplicitDomination(s *streams, name string, f *set.Family, o *dominationOptions) error {
	if o.smallest || o.makeND {
		return usageErrorf("%s: --smallest and --make-nd need the quorums, and this implicit %s family has %s, more than --limit %d", name, f.Kind, implicitCount(f), o.out.limit)
	}
	rep, why, err := implicitDomination(name, f, o.out.limit)
	if err != nil {
		return err
	}
	return writeOutput(s, "", func(w io.Writer) error {
		if o.asJSON {
			return rep.json(w)
		}
		_, err := fmt.Fprintf(w, "%s: nondominated, by a theorem: %s\n", name, why)
		return err
	})
}

// addImplicitFlag adds --implicit to the generate subcommands of the
// constructions that may be stored implicitly.
func addImplicitFlag(cmd *cobra.Command, spec construct.Spec, o *outputOptions) {
	if construct.CanImplicit(spec.Name) {
		cmd.Flags().BoolVar(&o.implicit, "implicit", false, fmt.Sprintf("write the implicit form (kind and params, no quorums) even when the quorums could be listed; it is written anyway past %d quorums", construct.MaxCatalogueQuorums))
	}
}

// generateImplicit writes the implicit form of a construction when
// --implicit asks for it or when the construction has more quorums than
// it lists (construct.MaxCatalogueQuorums); done is false when the quorums
// are to be listed as usual.
func generateImplicit(ctx context.Context, s *streams, spec construct.Spec, args construct.Args, out *outputOptions) (done bool, err error) {
	if !construct.CanImplicit(spec.Name) {
		return false, nil
	}
	fam, err := construct.ImplicitFamily(spec, args)
	if err != nil {
		if out.implicit {
			return true, buildError(spec, err)
		}
		return false, nil // Build says what is wrong
	}
	if !out.implicit {
		if !construct.TooManyToList(ctx, spec, args, fam) {
			return false, nil
		}
		if !out.enumerate {
			fmt.Fprintf(s.err, "coterie: note: generate %s: %s, too many to list: writing the implicit form (kind and params; docs/formats.md), which availability, info, verify and domination take\n",
				spec.Name, implicitCount(fam))
		}
	}
	sys := set.System{Family: fam}
	f, err := out.prepare(ctx, &sys)
	if err != nil {
		return true, err
	}
	return true, out.write(s, sys, f)
}

// implicitInfoReport prepares info's input: an implicit family with at
// most implicitCheckLimit quorums is listed (and reported as a list); a
// larger one gets the report of its construction, and done is true.
func implicitInfoReport(ctx context.Context, cmd *cobra.Command, s *streams, path string, sys *set.System, asJSON bool) (done bool, err error) {
	limit := implicitLimit(cmd)
	g, ok, err := materializeImplicit(ctx, sys.Family, limit)
	switch {
	case err != nil:
		return true, err
	case ok:
		implicitNote(s, displayName(path), g)
		sys.Family = g
		return false, nil
	case !construct.Held(g):
		return false, nil
	}
	return true, writeOutput(s, "", func(w io.Writer) error {
		if asJSON {
			return writeJSON(w, newImplicitInfo(g, limit).ImplicitInfo)
		}
		return newImplicitInfo(g, limit).table(w, displayName(path))
	})
}

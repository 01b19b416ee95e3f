package domination

import (
	"context"
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// ExplainProof says in a sentence how p shows that a witness of size nodes
// of f is a smallest one; q is the order of the projective plane the
// Bruen proofs are about. A proof this package does not name is returned
// as it is.
func ExplainProof(p Proof, f *set.Family, size, q int) string {
	lb := BruenBound(q)
	plane := fmt.Sprintf("the quorums are the lines of a projective plane of order %d", q)
	bruen := fmt.Sprintf("a blocking set of such a plane that contains no line has at least q+√q+1 points (Bruen 1970), so at least %d", lb)
	sizes := fmt.Sprint(lb)
	if size-1 > lb {
		sizes = fmt.Sprintf("%d to %d", lb, size-1)
	}
	switch p {
	case ProofClosedForm:
		return "every minimal witness of a threshold system has the same size"
	case ProofSolver:
		return fmt.Sprintf("the SAT solver found no witness of %d nodes or fewer", size-1)
	case ProofExhaustive:
		n := nodesInQuorums(f)
		return fmt.Sprintf("every one of the 2^%d subsets of the %d nodes in quorums was checked", n, n)
	case ProofBruen:
		return plane + "; " + bruen
	case ProofBruenSolver:
		return fmt.Sprintf("%s; %s; the SAT solver found none of %s points", plane, bruen, sizes)
	case ProofBruenSymmetry:
		return fmt.Sprintf("%s, isomorphic to PG(2,%d); %s; the SAT solver, searching up to the collineations of PG(2,%d), found none of %s points", plane, q, bruen, q, sizes)
	}
	return string(p)
}

// ExplainStructure says in a sentence what structure of the list decided
// the verdict (see [Result.Structure]), or "" for the general engines: q is
// the order of the plane, inner the names of the nodes of a join's inner
// system.
func ExplainStructure(structure string, q int, inner []string) string {
	switch structure {
	case StructureThreshold:
		return "the quorums are all the subsets of one size of the nodes in use; decided by the threshold formula"
	case StructurePlane:
		if q == 2 {
			return "the quorums are the lines of a projective plane of order 2, which has no blocking set without a line"
		}
		return fmt.Sprintf("the quorums are the lines of a projective plane of order %d; every plane of order at least 3 has a blocking set without a line", q)
	case StructureJoin:
		return fmt.Sprintf("a join (Kuo): the nodes {%s} carry an inner system; nondominated iff both parts are", strings.Join(inner, ", "))
	}
	return ""
}

// nodesInQuorums returns the number of nodes in some quorum of f, of any
// form: all of a threshold family's nodes, and those of an implicit
// family's quorums listed by its construction (all its nodes when there
// are too many to list).
func nodesInQuorums(f *set.Family) int {
	if t := construct.ThresholdForm(f); t != nil {
		if t.Threshold() <= f.N {
			return f.N
		}
		return 0
	}
	g, err := explicitFamily(context.Background(), f)
	if err != nil {
		return f.N
	}
	var u set.Set
	for _, q := range g.All() {
		u.Union(&u, q)
	}
	return u.Len()
}

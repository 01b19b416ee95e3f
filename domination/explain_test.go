package domination

import (
	"context"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// The sentence of each proof DecideSmallest gives names the figures it
// rests on: the nodes in quorums for the exhaustive search (not n), the
// Bruen bound for a plane.
func TestExplainProof(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     func(testing.TB) *Result
		want  []string
		proof Proof
	}{
		{"exhaustive: {1,2},{1,3} over 5 nodes", func(tb testing.TB) *Result {
			r, err := DecideSmallest(context.Background(), family(5, 1, []int{0, 1}, []int{0, 2}))
			if err != nil {
				tb.Fatal(err)
			}
			return r
		}, []string{"2^3 subsets of the 3 nodes"}, ProofExhaustive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.f(t)
			if r.Proof != tc.proof {
				t.Fatalf("proof %q, want %q", r.Proof, tc.proof)
			}
			got := ExplainProof(r.Proof, family(5, 1, []int{0, 1}, []int{0, 2}), r.Witness.Len(), r.PlaneOrder)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
		})
	}
	// Every named proof has its own sentence, and the Bruen ones give
	// the bound of the order asked: q+√q+1 rounded up, 7 for q = 4.
	seen := map[string]Proof{}
	for _, p := range []Proof{ProofClosedForm, ProofSolver, ProofExhaustive, ProofBruen, ProofBruenSolver, ProofBruenSymmetry} {
		s := ExplainProof(p, pg(t, 4), 9, 4)
		if s == string(p) || seen[s] != "" {
			t.Errorf("%s: %q", p, s)
		}
		seen[s] = p
		if strings.HasPrefix(string(p), "bruen") && !strings.Contains(s, "so at least 7") {
			t.Errorf("%s: %q does not give the bound 7", p, s)
		}
	}
	if got := ExplainProof("theorem", nil, 0, 0); got != "theorem" {
		t.Errorf("an unnamed proof: %q", got)
	}
}

func TestExplainStructure(t *testing.T) {
	if s := ExplainStructure(StructureJoin, 0, []string{"a", "b"}); !strings.Contains(s, "{a, b}") {
		t.Errorf("join: %q", s)
	}
	if s2, s3 := ExplainStructure(StructurePlane, 2, nil), ExplainStructure(StructurePlane, 3, nil); s2 == s3 || !strings.Contains(s3, "order 3") {
		t.Errorf("planes: %q, %q", s2, s3)
	}
	if s := ExplainStructure("", 0, nil); s != "" {
		t.Errorf("no structure: %q", s)
	}
}

// The exhaustive proof counts the nodes in quorums of a family of any
// form: an implicit family's quorums and a threshold family's used to
// count as none ("2^0 subsets of the 0 nodes").
func TestExplainExhaustiveForms(t *testing.T) {
	imp, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 2})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := construct.Materialize(imp, construct.ListLimit)
	if err != nil {
		t.Fatal(err)
	}
	th := set.NewThreshold(5, 3)
	thList, err := th.Enumerate(100)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f, list *set.Family
		want    string
	}{
		{imp, listed, "every one of the 2^7 subsets of the 7 nodes in quorums was checked"},
		{th, thList, "every one of the 2^5 subsets of the 5 nodes in quorums was checked"},
	} {
		if got := ExplainProof(ProofExhaustive, c.f, 3, 0); got != c.want {
			t.Errorf("%s: %q, want %q", c.f, got, c.want)
		}
		if got := ExplainProof(ProofExhaustive, c.list, 3, 0); got != c.want {
			t.Errorf("%s: %q, want %q", c.list, got, c.want)
		}
	}
	// One node in no quorum is not counted.
	if got := ExplainProof(ProofExhaustive, family(5, 1, []int{0, 1}, []int{0, 2}, []int{1, 2, 3}), 3, 0); !strings.Contains(got, "2^4 subsets of the 4 nodes") {
		t.Errorf("%q", got)
	}
}

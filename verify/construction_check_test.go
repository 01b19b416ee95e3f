package verify_test

import (
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// An implicit family's construction check cites its proof; a listed family
// has none.
func TestConstructionCheckOf(t *testing.T) {
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 3})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := verify.ConstructionCheckOf(f)
	if !ok || c.Name != "construction" || !c.OK || !c.Info || !strings.Contains(c.Detail, "valid by construction (tree)") {
		t.Errorf("tree: %+v, %v", c, ok)
	}
	g, err := construct.Materialize(f, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := verify.ConstructionCheckOf(g); ok {
		t.Errorf("listed tree: %+v", c)
	}
}

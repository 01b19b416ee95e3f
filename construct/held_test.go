package construct_test

import (
	"context"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/set"
)

// TestHeld checks that only a family held by its construction's
// parameters is held, and that listing it makes it a list.
func TestHeld(t *testing.T) {
	f, err := construct.Implicit("tree", set.Params{"degree": 2, "height": 2})
	if err != nil {
		t.Fatal(err)
	}
	if !construct.Held(f) {
		t.Fatalf("implicit tree not held: %#v", f)
	}
	g, err := construct.Explicit(context.Background(), f, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if construct.Held(g) || len(g.Quorums) == 0 {
		t.Fatalf("listed tree still held, or empty: %#v", g)
	}
	if construct.Held(nil) || construct.Held(set.NewThreshold(5, 3)) {
		t.Fatal("nil or threshold family held")
	}
}

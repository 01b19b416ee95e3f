package set

import (
	"errors"
	"testing"
)

// An implicit family names its construction and lists nothing; package set
// neither counts nor lists it.
func TestImplicitFamily(t *testing.T) {
	f := &Family{N: 2047, K: 1, Kind: "tree", Params: Params{"degree": 2, "height": 10}, Implicit: true}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	if !f.IsImplicit() || f.IsThreshold() {
		t.Error("IsImplicit/IsThreshold wrong")
	}
	if f.Len() != -1 || f.Count().Sign() >= 0 {
		t.Errorf("Len %d, Count %v: want -1 (unknown to package set)", f.Len(), f.Count())
	}
	if _, err := f.Enumerate(1 << 30); !errors.Is(err, ErrImplicit) {
		t.Errorf("Enumerate: %v, want ErrImplicit", err)
	}
	if g := f.CloneMeta(); !g.IsImplicit() || g.Params["height"] != 10 {
		t.Errorf("CloneMeta lost the implicit form: %v", g)
	}
	if f.Minimalize() != 0 {
		t.Error("Minimalize removed quorums of an implicit family")
	}
	bad := []*Family{
		{N: 3, K: 1, Implicit: true},
		{N: 3, K: 1, Kind: "tree", Implicit: true, Threshold: 2},
		{N: 3, K: 1, Kind: "tree", Implicit: true, Quorums: []Set{*New(3)}},
		{N: 3, K: 1, Kind: "tree", Implicit: true, Owners: []int{}},
	}
	for _, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("%+v: valid", b)
		}
	}
}

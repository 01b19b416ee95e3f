package domain

import (
	"math/big"
	"testing"
)

// A tree is fallible exactly when one of its domains is up with a
// probability below 1: nodes then fail together.
func TestFallible(t *testing.T) {
	var none *Tree
	if none.Fallible() {
		t.Fatal("a nil tree is fallible")
	}
	tr, err := FromRows(2, []Row{{File: "a", Line: 1, Node: 0, Domain: "eu/az-a"}, {File: "a", Line: 2, Node: 1, Domain: "eu/az-b"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Fallible() {
		t.Fatal("domains that are always up make the tree fallible")
	}
	d, _ := tr.Lookup("eu/az-b")
	if err := tr.SetP(d, big.NewRat(999, 1000)); err != nil {
		t.Fatal(err)
	}
	if !tr.Fallible() {
		t.Fatal("az-b may fail, yet the tree is not fallible")
	}
}

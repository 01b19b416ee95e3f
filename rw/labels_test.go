package rw_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
)

// SideQuorums lists a side as a coterie: the 2×3 grid's rows read and
// its columns (their dual, the minimal transversals of the rows, are the
// sets with one node of each row: 9 of them) written.
func TestSideQuorums(t *testing.T) {
	e, err := expr.Parse("a*b*c + d*e*f")
	if err == nil {
		e, err = e.Bind(func(name string) (int, error) { return int(name[0] - 'a'), nil })
	}
	if err != nil {
		t.Fatal(err)
	}
	nodes := rw.DefaultNodes(6)
	sys, err := rw.New(6, e, nil, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if sys.Labels() != nil {
		t.Errorf("no node has a label, Labels() = %v", sys.Labels())
	}
	nodes[0].Label, nodes[4].Label = "a", "e"
	if got, want := sys.Labels(), []string{"a", "2", "3", "4", "e", "6"}; !slices.Equal(got, want) {
		t.Errorf("Labels() = %v, want %v", got, want)
	}
	r, err := sys.SideQuorums(&sys.Reads, 0)
	if err != nil || r.K != 1 || len(r.Quorums) != 2 || r.Labels[4] != "e" {
		t.Fatalf("reads: %v, %v", r, err)
	}
	w, err := sys.SideQuorums(&sys.Writes, 0)
	if err != nil || len(w.Quorums) != 9 {
		t.Fatalf("writes: %v, %v", w, err)
	}
	for i := range w.Quorums {
		if w.Quorums[i].Len() != 2 {
			t.Errorf("write quorum %v: want one node of each row", &w.Quorums[i])
		}
	}
	if _, err := sys.SideQuorums(&sys.Writes, 8); !errors.Is(err, set.ErrTooMany) {
		t.Errorf("9 write quorums under a limit of 8: %v", err)
	}
}

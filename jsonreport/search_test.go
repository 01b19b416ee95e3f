package jsonreport_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/rw"
)

// A candidate of a real search is reported over the nodes' labels, with
// the fields of docs/formats.md in order, and no domain resilience when
// the nodes have no domains.
func TestSearchCandidate(t *testing.T) {
	nodes := rw.DefaultNodes(5)
	labels := []string{"a", "b", "c", "d", "e"}
	for v := range nodes {
		nodes[v].Label = labels[v]
	}
	res, err := rw.Search(context.Background(), nodes, rw.SearchOptions{Options: rw.Options{Workload: rw.Fixed(big.NewRat(1, 2))}, MaxPartitionNodes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best == nil {
		t.Fatal("no best system")
	}
	c := jsonreport.NewSearchCandidate(res.Best, labels, nil)
	if c.DomainResilience != nil || c.Source != res.Best.Source || c.Availability != res.Best.Availability {
		t.Errorf("%+v", c)
	}
	for _, e := range []string{c.Reads, c.Writes} {
		if strings.ContainsAny(e, "0123456789") && !strings.Contains(e, "choose") {
			t.Errorf("%q is not over the labels", e)
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	got := keys(t, b)
	if len(got) < 5 || got[0] != "reads" || got[1] != "writes" || got[2] != "source" {
		t.Errorf("keys %v", got)
	}
	var back jsonreport.SearchCandidate
	if err := json.Unmarshal(b, &back); err != nil || back.Reads != c.Reads || back.Resilience != c.Resilience {
		t.Errorf("read back %+v, %v", back, err)
	}
}

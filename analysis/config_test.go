package analysis_test

import (
	"context"
	"math"
	"testing"

	"github.com/coterie-dev/coterie/analysis"
	"github.com/coterie-dev/coterie/systems"
)

func parseConfig(t *testing.T, format, name, text string) *systems.Config {
	t.Helper()
	f, ok := systems.Lookup(format)
	if !ok {
		t.Fatalf("no format %s", format)
	}
	cfg, err := f.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The Cassandra keyspace of package systems' example: LOCAL_QUORUM reads
// in dc2 (2 of its 3 replicas) and QUORUM writes (4 of 6) can miss each
// other. Against brute force over all 2^6 subsets: the witness pair, the
// resilience of each side and the availability.
func TestCheckConfigCassandra(t *testing.T) {
	cfg := parseConfig(t, "cassandra", "shop.cql", `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};
read: LOCAL_QUORUM
write: QUORUM
read_dc: dc2
`)
	ps := []float64{0.9, 0.99}
	r, err := analysis.CheckConfig(context.Background(), cfg, analysis.ConfigOptions{Points: ps})
	if err != nil {
		t.Fatal(err)
	}
	if r.Safe || r.Meet.OK || r.Meet.Read == nil || r.Meet.Write == nil || r.Meet.Read.Len() != 2 || r.Meet.Write.Len() != 4 {
		t.Fatalf("verdict %+v", r.Meet)
	}
	for v := range r.Meet.Read.All() {
		if r.Meet.Write.Has(v) {
			t.Errorf("the witness pair meets in node %d", v+1)
		}
	}
	rq, wq := liveMasks(&r.Sys.Reads, 6), liveMasks(&r.Sys.Writes, 6)
	// Reads need 2 of dc2's 3: they survive 1 failure; writes 4 of 6: 2.
	if r.Read.F != bruteResilience(rq, 6) || r.Read.F != 1 || r.Write.F != bruteResilience(wq, 6) || r.Write.F != 2 {
		t.Errorf("resilience reads %d writes %d", r.Read.F, r.Write.F)
	}
	for k, p := range ps {
		a := r.Availability[k]
		if math.Abs(a.Reads-bruteAV(rq, 6, p)) > 1e-12 || math.Abs(a.Writes-bruteAV(wq, 6, p)) > 1e-12 {
			t.Errorf("AV(%g) %+v, brute force reads %g writes %g", p, a, bruteAV(rq, 6, p), bruteAV(wq, 6, p))
		}
	}
	// The data centres are the domains: losing one leaves a side a quorum
	// when the other three nodes hold one (brute force on the masks).
	d := r.Domains
	if d == nil || len(d.Domains) != 2 || d.Domains[0] != "dc1" || d.Domains[1] != "dc2" {
		t.Fatalf("domains %+v", d)
	}
	has := func(qs []uint32, live uint32) bool {
		for _, q := range qs {
			if q == live {
				return true
			}
		}
		return false
	}
	for i, live := range []uint32{0b111000, 0b000111} { // dc1 (nodes 1–3) down, dc2 down
		if d.Reads[i] != has(rq, live) || d.Writes[i] != has(wq, live) {
			t.Errorf("losing %s: reads %v writes %v, brute force %v %v", d.Domains[i], d.Reads[i], d.Writes[i], has(rq, live), has(wq, live))
		}
	}
}

// A MongoDB replica set of primary, secondary and arbiter with no write
// concern: MongoDB 5.0's implicit default is w: 1, so an election by the
// secondary and the arbiter can miss a write acknowledged by the primary
// alone (as the mongodb script of cmd/coterie shows).
func TestCheckConfigMongoDB(t *testing.T) {
	cfg := parseConfig(t, "mongodb", "psa.json", `{"_id": "rs0", "members": [
    {"_id": 0, "host": "mongo1", "priority": 2},
    {"_id": 1, "host": "mongo2"},
    {"_id": 2, "host": "arbiter", "arbiterOnly": true}]}`)
	r, err := analysis.CheckConfig(context.Background(), cfg, analysis.ConfigOptions{Points: []float64{0.9}, Override: map[int]float64{2: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Safe || r.Meet.Read == nil || r.Meet.Write == nil || r.Meet.Read.String() != "{1 2}" || r.Meet.Write.String() != "{0}" || len(r.Availability) != 1 {
		t.Fatalf("verdict %+v", r)
	}
	// The arbiter (up with 1/2 by Override) votes but holds no data:
	// brute force over the 2^3 states with its own probability.
	n := r.Sys.N
	rq := liveMasks(&r.Sys.Reads, n)
	av := 0.0
	for _, m := range rq {
		pr := 1.0
		for v := range n {
			p := 0.9
			if v == 2 {
				p = 0.5
			}
			if m&(1<<v) != 0 {
				pr *= p
			} else {
				pr *= 1 - p
			}
		}
		av += pr
	}
	if math.Abs(r.Availability[0].Reads-av) > 1e-12 {
		t.Errorf("reads AV %g, brute force %g", r.Availability[0].Reads, av)
	}
}

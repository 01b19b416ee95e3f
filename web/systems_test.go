package web_test

import (
	"math"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// TestUploadConfig: a Cassandra keyspace with LOCAL_QUORUM reads in dc2
// and QUORUM writes is a read-write system whose reads can miss writes;
// reads are available 3p²−2p³ (2 of dc2's 3), writes P(at least 4 of 6 up).
// A MongoDB replica set of three is the 2-of-3 majority coterie, held as
// a threshold.
func TestUploadConfig(t *testing.T) {
	h := web.New(web.Options{})
	cql := "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};\nread: LOCAL_QUORUM\nwrite: QUORUM\nread_dc: dc2\n"
	rec, v := post(t, h, "/api/upload?name=shop.cql&p=0.9", cql)
	if rec.Code != 200 {
		t.Fatalf("upload: %d %v", rec.Code, v)
	}
	if v["valid"] != false || !strings.Contains(v["verdict"].(string), "misses write quorum") {
		t.Errorf("verdict %v", v["verdict"])
	}
	av := v["rw"].(map[string]any)["availability"].([]any)[0].(map[string]any)
	p := 0.9
	w := 0.0
	for k, c := range map[int]float64{4: 15, 5: 6, 6: 1} {
		w += c * math.Pow(p, float64(k)) * math.Pow(1-p, float64(6-k))
	}
	if r := av["reads"].(float64); math.Abs(r-(3*p*p-2*p*p*p)) > 1e-12 || math.Abs(av["writes"].(float64)-w) > 1e-12 {
		t.Errorf("availability %v, want reads %v writes %v", av, 3*p*p-2*p*p*p, w)
	}
	rs := `{"_id": "rs0", "members": [{"_id": 0, "host": "a"}, {"_id": 1, "host": "b"}, {"_id": 2, "host": "c"}]}`
	if rec, v := post(t, h, "/api/upload?name=rs.json", rs); rec.Code != 200 || v["valid"] != true || v["threshold"] != 2.0 {
		t.Errorf("replica set: %d %v", rec.Code, v)
	}
	if rec, v := post(t, h, "/api/upload?name=bad.cql", cql+"flavour: mint\n"); rec.Code != 400 || !strings.Contains(v["error"].(string), "bad.cql:5: unknown key") {
		t.Errorf("bad configuration: %d %v", rec.Code, v)
	}
}

package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// zoneNodes are the nodes of the worked example of docs/domains.md as a
// read-write file's "nodes": 1–3 in zone-a, 4–6 in zone-b, 7–9 in zone-c,
// each zone up with probability 0.999.
const zoneNodes = `"nodes": [{"node": 1, "domain": "zone-a"}, {"node": 2, "domain": "zone-a"}, {"node": 3, "domain": "zone-a"},
  {"node": 4, "domain": "zone-b"}, {"node": 5, "domain": "zone-b"}, {"node": 6, "domain": "zone-b"},
  {"node": 7, "domain": "zone-c"}, {"node": 8, "domain": "zone-c"}, {"node": 9, "domain": "zone-c"}],
 "domains": [{"domain": "zone-a", "p": "0.999"}, {"domain": "zone-b", "p": "0.999"}, {"domain": "zone-c", "p": "0.999"}]`

// TestUploadDomains uploads the three systems of the worked example of
// docs/domains.md (9 nodes in 3 zones; the same quorums read and write)
// and checks what the explorer shows against the page's figures: the
// zone resilience (1 for the majority and HQC, 0 for the grid, with a
// smallest killing set of 2 zones, 2 zones and 1 zone), the availability
// with the zones at p = 0.99 (0.9999926173, 0.9999949523, 0.9969568219),
// the domain tree, the report's domain tables, and the drawing with a bar
// per zone beside the node rows of the matrix.
func TestUploadDomains(t *testing.T) {
	h := web.New(web.Options{})
	for _, c := range []struct {
		name, expr string
		res        float64
		kill       int
		av         float64
	}{
		{"majority", "choose(5, 1, 2, 3, 4, 5, 6, 7, 8, 9)", 1, 2, 0.9999926173},
		{"hqc", "choose(2, choose(2, 1, 2, 3), choose(2, 4, 5, 6), choose(2, 7, 8, 9))", 1, 2, 0.9999949523},
		{"grid", "(1*2*3 + 4*5*6 + 7*8*9)*(1*4*7 + 2*5*8 + 3*6*9)", 0, 1, 0.9969568219},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"format": "coterie/1", "n": 9, "reads": %q, "writes": %q, %s}`, c.expr, c.expr, zoneNodes)
			rec, v := post(t, h, "/api/upload?name="+c.name+".json&p=0.99", body)
			if rec.Code != 200 {
				t.Fatalf("upload: %d %v", rec.Code, v)
			}
			var a web.Analysis
			raw, _ := json.Marshal(v)
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatal(err)
			}
			if a.Domains == nil || len(a.Domains.Resilience) != 1 {
				t.Fatalf("domains %+v", a.Domains)
			}
			r := a.Domains.Resilience[0]
			if float64(r.Resilience) != c.res || r.Domains != 3 || len(r.Killing) != c.kill {
				t.Errorf("zone resilience %+v, want %v with %d zones killing", r, c.res, c.kill)
			}
			if len(a.Domains.Tree) != 3 {
				t.Fatalf("tree %+v", a.Domains.Tree)
			}
			for i, d := range a.Domains.Tree {
				want := fmt.Sprintf("zone-%c", 'a'+i)
				if d.Domain != want || d.Level != 1 || d.P != "0.999" || fmt.Sprint(d.Nodes) != fmt.Sprint([]int{3*i + 1, 3*i + 2, 3*i + 3}) {
					t.Errorf("tree row %d: %+v", i, d)
				}
			}
			av := a.RW.Availability[0]
			if math.Abs(av.Reads-c.av) > 5e-11 || math.Abs(av.Writes-c.av) > 5e-11 {
				t.Errorf("availability with the zones at 0.99: reads %v writes %v, want %v", av.Reads, av.Writes, c.av)
			}
			for _, h := range []string{"Failure domains", "Domain resilience", "What if a top-level domain is down"} {
				if !strings.Contains(a.Sections, h) {
					t.Errorf("the sections have no %q", h)
				}
			}
			// One bar per zone, over its three rows.
			for i := range 3 {
				re := regexp.MustCompile(fmt.Sprintf(`<rect [^>]*class="domain" data-domain="zone-%c"[^>]*><title>domain zone-%c: nodes %d–%d</title>`, 'a'+i, 'a'+i, 3*i+1, 3*i+3))
				if n := len(re.FindAllString(a.Drawing, -1)); n != 1 {
					t.Errorf("zone-%c: %d bars in the drawing", 'a'+i, n)
				}
			}
		})
	}
}

// TestUploadConfigDomains: ZooKeeper's documented 3×3 hierarchy, whose
// groups are failure domains, shows them: three groups, any one of which
// may fail.
func TestUploadConfigDomains(t *testing.T) {
	var cfg strings.Builder
	cfg.WriteString("tickTime=2000\ndataDir=/var/lib/zookeeper\nclientPort=2181\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&cfg, "server.%d=zoo%d:2888:3888\n", i, i)
	}
	cfg.WriteString("group.1=1:2:3\ngroup.2=4:5:6\ngroup.3=7:8:9\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&cfg, "weight.%d=1\n", i)
	}
	h := web.New(web.Options{})
	rec, v := post(t, h, "/api/upload?name=zoo.cfg", cfg.String())
	if rec.Code != 200 {
		t.Fatalf("upload: %d %v", rec.Code, v)
	}
	d, ok := v["domains"].(map[string]any)
	if !ok {
		t.Fatalf("no domains: %v", v["verdict"])
	}
	tree := d["tree"].([]any)
	res := d["resilience"].([]any)[0].(map[string]any)
	if len(tree) != 3 || res["resilience"] != 1.0 || res["domains"] != 3.0 {
		t.Errorf("tree %v, resilience %v", tree, res)
	}
	if !strings.Contains(v["drawing"].(string), `data-domain="group.2"`) {
		t.Error("the drawing does not show group.2")
	}

	// A MongoDB replica set of three, two in dc east: a majority, which
	// losing east kills; its hosts are its labels.
	rs := `{"_id": "rs0", "members": [{"_id": 0, "host": "a", "tags": {"dc": "east"}}, {"_id": 1, "host": "b", "tags": {"dc": "east"}}, {"_id": 2, "host": "c", "tags": {"dc": "west"}}]}`
	rec, v = post(t, h, "/api/upload?name=rs.json", rs)
	if rec.Code != 200 {
		t.Fatalf("replica set: %d %v", rec.Code, v)
	}
	raw, _ := json.Marshal(v["domains"])
	var dv web.DomainsView
	if err := json.Unmarshal(raw, &dv); err != nil {
		t.Fatal(err)
	}
	if len(dv.Tree) != 2 || fmt.Sprint(dv.Tree[0].Nodes) != "[1 2]" || len(dv.Resilience) != 1 ||
		dv.Resilience[0].Resilience != 0 || fmt.Sprint(dv.Resilience[0].Killing) != "[east]" {
		t.Errorf("replica set domains %+v", dv)
	}
}

// TestUploadDomainsBad: a domain for a node that is not there, a
// probability for a domain no node is in: 400, naming the file.
func TestUploadDomainsBad(t *testing.T) {
	h := web.New(web.Options{})
	for _, body := range []string{
		`{"n": 3, "reads": "choose(2, 1, 2, 3)", "nodes": [{"node": 1, "domain": "a"}, {"node": 2, "domain": "a"}]}`,
		`{"n": 3, "reads": "choose(2, 1, 2, 3)", "nodes": [{"node": 1, "domain": "a"}, {"node": 2, "domain": "a"}, {"node": 3, "domain": "b"}], "domains": [{"domain": "c", "p": "0.9"}]}`,
	} {
		rec, v := post(t, h, "/api/upload?name=bad.json", body)
		if rec.Code != 400 || !strings.Contains(fmt.Sprint(v["error"]), "bad.json") {
			t.Errorf("%s: %d %v", body, rec.Code, v)
		}
	}
}

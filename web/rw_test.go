package web_test

import (
	"math"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// TestUploadReadWrite: quoracle's 2×3 grid pasted as an expression, rows
// read: read resilience 1, write resilience 2, load 3/8 at read fraction
// 1/4 (Whittaker et al.'s tutorial), reads available 1−(1−p³)² and writes
// (1−(1−p)³)².
func TestUploadReadWrite(t *testing.T) {
	h := web.New(web.Options{})
	rec, v := post(t, h, "/api/upload?name=grid.json&read_fraction=0.25&p=0.9", `{"reads": "a*b*c + d*e*f"}`)
	if rec.Code != 200 {
		t.Fatalf("upload: %d %v", rec.Code, v)
	}
	fig, ok := v["rw"].(map[string]any)
	if !ok {
		t.Fatalf("no rw figures: %v", v)
	}
	if fig["writes"] != "(a + b + c)*(d + e + f)" || fig["writes_derived"] != true {
		t.Errorf("writes %v (derived %v)", fig["writes"], fig["writes_derived"])
	}
	for k, want := range map[string]float64{"read_resilience": 1, "write_resilience": 2, "resilience": 1} {
		if fig[k] != want {
			t.Errorf("%s = %v, want %v", k, fig[k], want)
		}
	}
	if fig["load_exact"] != "3/8" || fig["capacity_exact"] != "8/3" || fig["read_fraction"] != "1/4" {
		t.Errorf("load %v capacity %v at %v, want 3/8 and 8/3 at 1/4", fig["load_exact"], fig["capacity_exact"], fig["read_fraction"])
	}
	av := fig["availability"].([]any)[0].(map[string]any)
	p := 0.9
	if r, w := av["reads"].(float64), av["writes"].(float64); math.Abs(r-(1-math.Pow(1-p*p*p, 2))) > 1e-12 || math.Abs(w-math.Pow(1-math.Pow(1-p, 3), 2)) > 1e-12 {
		t.Errorf("availability reads %v writes %v", r, w)
	}
	if v["valid"] != true || !strings.Contains(v["sections"].(string), "load at read fraction 1/4") {
		t.Errorf("valid %v, sections %q", v["valid"], v["sections"])
	}
	if !strings.Contains(v["drawing"].(string), "<svg") || len(v["quorums"].([]any)) != 2 {
		t.Errorf("the read side is not drawn and listed: %v", v["quorums"])
	}
}

// TestUploadReadWriteText: a text paste with listed quorums (the 2-of-3
// majority, which is not a formula using each node once): both sides are
// the majority, available 3p²−2p³, and the load at reads only is 2/3.
func TestUploadReadWriteText(t *testing.T) {
	h := web.New(web.Options{})
	rec, v := post(t, h, "/api/upload?name=maj.txt&read_fraction=1&p=0.9", "# reads\n1 2\n2 3\n1 3\n")
	if rec.Code != 200 {
		t.Fatalf("upload: %d %v", rec.Code, v)
	}
	fig := v["rw"].(map[string]any)
	if fig["load_exact"] != "2/3" || fig["read_resilience"] != 1.0 || fig["write_resilience"] != 1.0 {
		t.Errorf("figures %v", fig)
	}
	av := fig["availability"].([]any)[0].(map[string]any)
	want := 3*0.81 - 2*0.729
	if math.Abs(av["reads"].(float64)-want) > 1e-12 || math.Abs(av["writes"].(float64)-want) > 1e-12 || av["exact"] != true {
		t.Errorf("availability %v, want %v exactly", av, want)
	}
}

// TestUploadReadWriteBad: sides that do not meet are reported with the
// pair; a syntax error in an expression and a bad read fraction are 400.
func TestUploadReadWriteBad(t *testing.T) {
	h := web.New(web.Options{})
	rec, v := post(t, h, "/api/upload?name=bad.json", `{"reads": "a + b", "writes": "c"}`)
	if rec.Code != 200 || v["valid"] != false || !strings.Contains(v["verdict"].(string), "misses write quorum {c}") {
		t.Errorf("disjoint sides: %d %v", rec.Code, v["verdict"])
	}
	if rec, v := post(t, h, "/api/upload?name=syntax.json", `{"reads": "a*(b"}`); rec.Code != 400 || !strings.Contains(v["error"].(string), "syntax.json") {
		t.Errorf("syntax error: %d %v", rec.Code, v)
	}
	if rec, v := post(t, h, "/api/upload?name=g.json&read_fraction=2", `{"reads": "a*b"}`); rec.Code != 400 || !strings.Contains(v["error"].(string), "read_fraction") {
		t.Errorf("read fraction 2: %d %v", rec.Code, v)
	}
}

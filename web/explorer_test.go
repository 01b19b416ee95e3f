package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/web"
)

// TestCurve: the curve of majority of 3 is AV(p) = 3p² − 2p³ at every p
// from 0.5 to 0.999, with 1 − AV beside it; an unknown id is 404.
func TestCurve(t *testing.T) {
	h := web.New(web.Options{})
	a := generate(t, h, "majority", map[string]string{"n": "3"})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/curve/"+a["id"].(string), nil))
	if rec.Code != 200 {
		t.Fatalf("curve: %d %s", rec.Code, rec.Body)
	}
	var c web.Curve
	if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if !c.Exact || len(c.Points) < 20 || c.Points[0].P != 0.5 || c.Points[len(c.Points)-1].P != 0.999 {
		t.Fatalf("curve exact %v, %d points from %v", c.Exact, len(c.Points), c.Points)
	}
	for _, pt := range c.Points {
		p := pt.P
		want := 3*p*p - 2*p*p*p
		if math.Abs(pt.AV-want) > 1e-12 || math.Abs(pt.U-(1-want)) > 1e-12 {
			t.Errorf("p = %v: AV %v, 1 − AV %v; want %v", p, pt.AV, pt.U, want)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(h, "GET", "/api/curve/nope", nil))
	if rec.Code != 404 {
		t.Errorf("unknown id: %d", rec.Code)
	}
}

// TestSides: the read quorums abc + def have as write quorums the nine
// pairs of one node of each (their minimal transversals); both sides are
// listed 1-based and drawn with the nodes' labels.
func TestSides(t *testing.T) {
	h := web.New(web.Options{})
	rec, _ := post(t, h, "/api/sides?name=rw.json", `{"reads": "a*b*c + d*e*f"}`)
	if rec.Code != 200 {
		t.Fatalf("sides: %d %s", rec.Code, rec.Body)
	}
	var s web.Sides
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.N != 6 || !slices.Equal(s.Labels, []string{"a", "b", "c", "d", "e", "f"}) {
		t.Fatalf("n %d, labels %v", s.N, s.Labels)
	}
	if len(s.Reads.Quorums) != 2 || !slices.Equal(s.Reads.Quorums[0], []int{1, 2, 3}) || !slices.Equal(s.Reads.Quorums[1], []int{4, 5, 6}) {
		t.Errorf("reads %v", s.Reads.Quorums)
	}
	seen := map[[2]int]bool{}
	for _, q := range s.Writes.Quorums {
		if len(q) != 2 || q[0] < 1 || q[0] > 3 || q[1] < 4 || q[1] > 6 {
			t.Errorf("write quorum %v is not one node of each read quorum", q)
			continue
		}
		seen[[2]int{q[0], q[1]}] = true
	}
	if len(seen) != 9 || len(s.Writes.Quorums) != 9 {
		t.Errorf("writes %v, want the 9 pairs", s.Writes.Quorums)
	}
	for _, sd := range []*web.Side{s.Reads, s.Writes} {
		if !strings.Contains(sd.Drawing, `data-node="6"`) || !strings.Contains(sd.Drawing, ">f<") {
			t.Errorf("drawing without node 6 labelled f: %.200s", sd.Drawing)
		}
	}
	// 2^15 read quorums: one node of each of 15 pairs; more than are listed.
	var pairs []string
	for i := range 15 {
		pairs = append(pairs, "(x"+strconv.Itoa(2*i)+" + x"+strconv.Itoa(2*i+1)+")")
	}
	big := `{"reads": "` + strings.Join(pairs, " * ") + `"}`
	if rec, v := post(t, h, "/api/sides?name=big", big); rec.Code != 400 || !strings.Contains(fmt.Sprint(v["error"]), "more than 20000 quorums") {
		t.Errorf("2^15 quorums: %d %v", rec.Code, v)
	}
	for _, body := range []string{"1 2\n2 3\n", `{"reads": "a*"}`} {
		if rec, v := post(t, h, "/api/sides?name=x", body); rec.Code != 400 || v["error"] == "" {
			t.Errorf("%q: %d %v", body, rec.Code, v)
		}
	}
}

// TestAssetsCSP: the page runs under a Content-Security-Policy without
// 'unsafe-inline' or 'unsafe-eval' for scripts: no inline script, no
// event-handler attribute, no javascript: URL, no eval or Function.
func TestAssetsCSP(t *testing.T) {
	h := web.New(web.Options{})
	get := func(p string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(h, "GET", p, nil))
		return rec.Body.String()
	}
	page := get("/")
	if m := regexp.MustCompile(`<script(\s[^>]*)?>`).FindAllString(page, -1); len(m) != 1 || !strings.Contains(m[0], `src="app.js"`) {
		t.Errorf("scripts %q, want the one app.js", m)
	}
	if m := regexp.MustCompile(`(?i)\son[a-z]+\s*=`).FindString(page); m != "" {
		t.Errorf("event-handler attribute %q", m)
	}
	js := get("/app.js")
	for _, bad := range []string{"javascript:", "eval(", "new Function", "setTimeout(\"", "setInterval(\""} {
		if strings.Contains(page+js, bad) {
			t.Errorf("%q in the page or its script", bad)
		}
	}
	// Every API request goes through one helper (api), so that a header
	// or token is added in one place.
	if n := strings.Count(js, "fetch("); n != 1 {
		t.Errorf("%d calls of fetch in app.js, want 1 (in api)", n)
	}
}

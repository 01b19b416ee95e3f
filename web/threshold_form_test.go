package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/web"
)

// A threshold file is answered with its threshold and no list, the same
// family listed with every w-subset and no threshold; the figures are the
// same.
func TestUploadThresholdFormAgreesWithListed(t *testing.T) {
	h := web.New(web.Options{})
	for _, nw := range [][2]int{{3, 2}, {4, 2}, {5, 3}} {
		n, w := nw[0], nw[1]
		e, err := set.NewThreshold(n, w).Enumerate(1 << 10)
		if err != nil {
			t.Fatal(err)
		}
		var qs []string
		var want [][]float64
		for _, q := range e.All() {
			var s []string
			var one []float64
			for v := range q.All() {
				s = append(s, fmt.Sprint(v+1))
				one = append(one, float64(v+1))
			}
			qs = append(qs, "["+strings.Join(s, ", ")+"]")
			want = append(want, one)
		}
		rule := fmt.Sprintf(`{"format": "coterie/1", "n": %d, "threshold": %d}`, n, w)
		list := fmt.Sprintf(`{"format": "coterie/1", "n": %d, "quorums": [%s]}`, n, strings.Join(qs, ", "))
		rec, a := post(t, h, "/api/upload?name=rule.json&p=0.9", rule)
		if rec.Code != 200 {
			t.Fatalf("%d of %d: %d %v", w, n, rec.Code, a)
		}
		rec, b := post(t, h, "/api/upload?name=list.json&p=0.9", list)
		if rec.Code != 200 {
			t.Fatalf("%d of %d listed: %d %v", w, n, rec.Code, b)
		}
		if a["threshold"] != float64(w) || a["quorums"] != nil {
			t.Errorf("%d of %d: threshold %v, quorums %v", w, n, a["threshold"], a["quorums"])
		}
		if b["threshold"] != nil {
			t.Errorf("%d of %d listed: threshold %v", w, n, b["threshold"])
		}
		var got [][]float64
		for _, q := range b["quorums"].([]any) {
			var one []float64
			for _, v := range q.([]any) {
				one = append(one, v.(float64))
			}
			got = append(got, one)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%d of %d listed: quorums %v, want %v", w, n, got, want)
		}
		if fmt.Sprint(a["nines"]) != fmt.Sprint(b["nines"]) || a["valid"] != b["valid"] {
			t.Errorf("%d of %d: nines %v valid %v; listed %v %v", w, n, a["nines"], a["valid"], b["nines"], b["valid"])
		}
	}
}

// A read-write file whose read side is a threshold and whose write side a
// formula gets the figures of the same file with the reads listed.
func TestUploadRWThresholdSideAgreesWithListed(t *testing.T) {
	h := web.New(web.Options{})
	const writes = `"writes": "a*b*c + c*d*e + a*e"`
	labels := `"labels": ["a", "b", "c", "d", "e"]`
	rule := `{"n": 5, ` + labels + `, "reads": {"threshold": 3}, ` + writes + `}`
	e, err := set.NewThreshold(5, 3).Enumerate(1 << 10)
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, q := range e.All() {
		var s []string
		for v := range q.All() {
			s = append(s, fmt.Sprintf("%q", string(rune('a'+v))))
		}
		qs = append(qs, "["+strings.Join(s, ", ")+"]")
	}
	list := `{"n": 5, ` + labels + `, "reads": [` + strings.Join(qs, ", ") + `], ` + writes + `}`
	rec, a := post(t, h, "/api/upload?name=rule.json&p=0.9", rule)
	if rec.Code != 200 {
		t.Fatalf("rule: %d %v", rec.Code, a)
	}
	rec, b := post(t, h, "/api/upload?name=list.json&p=0.9", list)
	if rec.Code != 200 {
		t.Fatalf("listed: %d %v", rec.Code, b)
	}
	ra, rb := a["rw"].(map[string]any), b["rw"].(map[string]any)
	for _, k := range []string{"availability", "load", "capacity", "read_resilience", "write_resilience"} {
		if fmt.Sprint(ra[k]) != fmt.Sprint(rb[k]) {
			t.Errorf("%s: %v, listed %v", k, ra[k], rb[k])
		}
	}
	if a["valid"] != b["valid"] || a["verdict"] != b["verdict"] {
		t.Errorf("verdict %v %v, listed %v %v", a["valid"], a["verdict"], b["valid"], b["verdict"])
	}
	if fmt.Sprint(ra["availability"]) == "<nil>" {
		t.Errorf("no availability in %v", ra)
	}
}

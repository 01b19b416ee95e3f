package jsonreport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/rw"
)

// A search that found nothing reports its counts, no best system and an
// empty (not null) Pareto front.
func TestFromSearchEmpty(t *testing.T) {
	res := &rw.SearchResult{Tried: 7, Feasible: 0, TriedBy: map[string]int{"grid": 7}, FeasibleBy: map[string]int{}}
	rep := FromSearch(res, 5, nil, nil, true)
	if rep.N != 5 || rep.Tried != 7 || rep.Best != nil || rep.Pareto == nil || !rep.Partial || rep.Complete {
		t.Fatalf("got %+v", rep)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"pareto":[]`) || strings.Contains(string(data), `"best"`) {
		t.Errorf("JSON %s", data)
	}
}

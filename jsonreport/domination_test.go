package jsonreport_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/coterie-dev/coterie/domination"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
)

// The report is written on one line, spaced as docs/formats.md shows it,
// and reads back into the same value.
func TestDominationJSON(t *testing.T) {
	added, quorums := 2, 9
	for _, tc := range []struct {
		rep  jsonreport.Domination
		want string
	}{
		{jsonreport.Domination{K: 1, Witness: []int{1, 2, 5}}, `{"nondominated": false, "k": 1, "witness": [1, 2, 5]}`},
		{jsonreport.Domination{Nondominated: true, K: 2, Structure: "join", Inner: []int{3, 4}},
			`{"nondominated": true, "k": 2, "structure": "join", "inner": [3, 4]}`},
		{jsonreport.Domination{K: 1, Witness: []int{1}, Partial: true, LowerBound: 1},
			`{"nondominated": false, "k": 1, "witness": [1], "smallest": false, "lower_bound": 1, "partial": true}`},
		{jsonreport.Domination{K: 1, Witness: []int{2}, Smallest: true, Proof: "exhaustive", Added: &added, Quorums: &quorums, Output: "a\u0085b.json"},
			`{"nondominated": false, "k": 1, "witness": [2], "smallest": true, "proof": "exhaustive", "added": 2, "quorums": 9, "output": "a\u0085b.json"}`},
	} {
		b, err := json.Marshal(tc.rep)
		if err != nil {
			t.Fatal(err)
		}
		// json.Marshal compacts what MarshalJSON returns: compare the
		// method's own bytes.
		own, _ := tc.rep.MarshalJSON()
		if string(own) != tc.want {
			t.Errorf("got  %s\nwant %s", own, tc.want)
		}
		var back jsonreport.Domination
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, tc.rep) {
			t.Errorf("read back %+v, want %+v", back, tc.rep)
		}
	}
}

// NewDomination numbers the witness from 1, and gives the proof only when
// --smallest was asked.
func TestNewDomination(t *testing.T) {
	f := set.NewFamily(4)
	f.Add(set.Of(0, 1), set.NoOwner)
	f.Add(set.Of(0, 2), set.NoOwner)
	r, err := domination.DecideSmallest(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	rep := jsonreport.NewDomination(r, true)
	if rep.Nondominated || !reflect.DeepEqual(rep.Witness, []int{1}) || !rep.Smallest || rep.Proof == "" {
		t.Errorf("%+v: want the witness [1] (node 1 meets both quorums), proved smallest", rep)
	}
	if rep := jsonreport.NewDomination(r, false); rep.Smallest || rep.Proof != "" {
		t.Errorf("without --smallest: %+v", rep)
	}
	b, _ := rep.MarshalJSON()
	if strings.Contains(string(b), "\n") {
		t.Errorf("%s: not one line", b)
	}
}

package jsonreport_test

import (
	"encoding/json"
	"testing"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/jsonreport"
)

// Every registered construction is listed with each of its parameters,
// typed, an int with its range, and reads back as written.
func TestGenerateKinds(t *testing.T) {
	if len(construct.Specs()) == 0 {
		t.Fatal("no constructions registered")
	}
	for _, spec := range construct.Specs() {
		k := jsonreport.NewGenerateKind(spec)
		if k.Name != spec.Name || len(k.Params) != len(spec.Params) {
			t.Errorf("%s: %+v", spec.Name, k)
			continue
		}
		for i, p := range k.Params {
			switch {
			case p.Type == "int" && p.Range != spec.Params[i].Range():
				t.Errorf("%s --%s: range %q", spec.Name, p.Name, p.Range)
			case p.Type != "int" && p.Type != "bool" && p.Type != "string", p.Type != "int" && p.Range != "":
				t.Errorf("%s --%s: type %q, range %q", spec.Name, p.Name, p.Type, p.Range)
			}
		}
		b, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		var back jsonreport.GenerateKind
		if err := json.Unmarshal(b, &back); err != nil || back.Name != k.Name || len(back.Params) != len(k.Params) {
			t.Errorf("%s: read back %+v, %v", spec.Name, back, err)
		}
	}
}

package jsonreport_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/jsonreport"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/verify"
)

// A Go program writes the report `coterie verify --json` writes, and reads
// one back into the same type.
func ExampleFromVerify() {
	f, _ := construct.ProjectivePlane(2)
	r, _ := verify.Verify(context.Background(), set.System{Family: f}, verify.Options{})
	b, _ := json.Marshal(jsonreport.FromVerify(r))

	var rep jsonreport.Verify
	_ = json.Unmarshal(b, &rep)
	fmt.Println("valid:", rep.Valid, "n:", rep.N, "quorums:", rep.Quorums)
	for _, c := range rep.Checks {
		if c.Name == "intersection" || c.Name == "projective_plane" {
			fmt.Println(c.Name, c.OK)
		}
	}
	// Output:
	// valid: true n: 7 quorums: 7
	// intersection true
	// projective_plane true
}

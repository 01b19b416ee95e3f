package construct_test

import (
	"errors"
	"fmt"

	"github.com/coterie-dev/coterie/construct"
)

// Every construction is a Spec in the registry: look one up by the name the
// command line uses, give it parameters, build it. Bad parameters come back
// as a *ParamError naming the parameter.
func Example() {
	spec, _ := construct.Lookup("grid")
	args, _ := construct.NewArgs(spec, map[string]any{"rows": 2, "cols": 3})
	sys, _ := spec.Build(args)
	for i := range sys.Family.Quorums {
		fmt.Println(oneBased(&sys.Family.Quorums[i]))
	}

	spec, _ = construct.Lookup("fpp")
	args, _ = construct.NewArgs(spec, map[string]any{"order": 6})
	_, err := spec.Build(args)
	var pe *construct.ParamError
	if errors.As(err, &pe) {
		fmt.Printf("%s = %v: %s\n", pe.Param, pe.Value, pe.Reason)
	}
	// Output:
	// [1 2 3 4]
	// [1 2 3 5]
	// [1 2 3 6]
	// [1 4 5 6]
	// [2 4 5 6]
	// [3 4 5 6]
	// order = 6: is not a prime power; the nearest prime powers are 5 and 7
}

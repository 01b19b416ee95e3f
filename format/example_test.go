package format_test

import (
	"fmt"
	"strings"

	"github.com/coterie-dev/coterie/construct"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/set"
)

// Write a system in the text format and read it back: nodes are 1-based in
// the file, 0-based in Go.
func Example() {
	fano, _ := construct.ProjectivePlane(2)
	var b strings.Builder
	if err := format.Write(&b, set.System{Family: fano}, format.Text, format.DefaultOptions()); err != nil {
		fmt.Println(err)
	}
	fmt.Print(b.String())

	sys, err := format.ReadBytes([]byte(b.String()), format.Text, format.DefaultOptions())
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println("read back:", sys.Family.N, "nodes, first quorum", &sys.Family.Quorums[0])

	// A bad file: one error naming the line.
	_, err = format.ReadBytes([]byte("1 2\n2 0\n"), format.Text, format.DefaultOptions())
	fmt.Println(err)
	// Output:
	// # format: coterie/1
	// # kind: fpp
	// # params: {"order": 2}
	// # n: 7
	// # k: 1
	// 1 2 3 # owner: 1
	// 2 4 6 # owner: 2
	// 3 4 7 # owner: 3
	// 1 4 5 # owner: 4
	// 2 5 7 # owner: 5
	// 3 5 6 # owner: 6
	// 1 6 7 # owner: 7
	// read back: 7 nodes, first quorum {0 1 2}
	// line 2: node id 0: nodes are numbered from 1
}

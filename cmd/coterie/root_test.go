package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The table of subcommands is the command tree: its names, in the order
// of the root's help.
func TestSubcommandsTable(t *testing.T) {
	s := &streams{in: strings.NewReader(""), out: new(bytes.Buffer), err: new(bytes.Buffer)}
	var names []string
	for _, c := range newRoot(s, &runState{}, nil).Commands() {
		names = append(names, c.Name())
	}
	var want []string
	for _, c := range subcommands {
		if got := c.make(s).Name(); got != c.name {
			t.Errorf("subcommands lists %q for the command named %q", c.name, got)
		}
		want = append(want, c.name)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("root commands %v, table %v", names, want)
	}
}

// invoked finds the command as cobra does, skipping the value of a flag
// given without "=".
func TestInvoked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"info", "f.json"}, "info"},
		{[]string{"--timeout", "5s", "availability", "x"}, "availability"},
		{[]string{"--timeout=5s", "availability"}, "availability"},
		{[]string{"--max-memory", "1GiB", "verify", "info"}, "verify"},
		{[]string{"--json", "info", "generate"}, "generate"}, // cobra reads info as the value of --json
		{[]string{"-x", "info", "merge"}, "merge"},
		{[]string{"-xy", "info"}, "info"},
		{[]string{"--", "info"}, ""},
		{[]string{"help", "info"}, ""},
		{[]string{"__complete", "info", ""}, ""},
		{[]string{"nosuch", "info"}, ""},
		{[]string{"--timeout"}, ""},
		{[]string{"", "info"}, "info"},
	} {
		if got := invoked(tc.args); got != tc.want {
			t.Errorf("invoked(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// Building only the invoked command changes nothing a user sees: the same
// output, errors and help as with the whole tree.
func TestLazyRootSameAsWhole(t *testing.T) {
	dir := t.TempDir()
	lines := [][]string{
		{"--help"}, {"help", "availability"}, {"nosuch"}, {"availabilty"},
		{"--timeout", "5s", "info", "--help"}, {"--timeout", "x", "info"},
		{"--json", "info", "generate", "--list"}, {"info", "--nosuch"},
		{"generate", "fpp", "--order", "2"}, {"info", dir}, {"--max-memory", "1GiB"},
	}
	for _, c := range subcommands {
		lines = append(lines, []string{c.name, "--help"}, []string{c.name, "--nosuch"})
	}
	exec := func(whole bool, args []string) string {
		var out, errb bytes.Buffer
		s := &streams{in: strings.NewReader(""), out: &out, err: &errb}
		st := &runState{}
		built := args
		if whole {
			built = nil
		}
		root := newRoot(s, st, built)
		root.SetArgs(args)
		root.SetIn(s.in)
		root.SetOut(s.out)
		root.SetErr(s.err)
		err := root.ExecuteContext(context.Background())
		return fmt.Sprintf("err %v\nout %s\nstderr %s", err, out.String(), errb.String())
	}
	for _, args := range lines {
		if lazy, whole := exec(false, args), exec(true, args); lazy != whole {
			t.Errorf("%q:\nbuilt alone:\n%s\nwhole tree:\n%s", args, lazy, whole)
		}
	}
}

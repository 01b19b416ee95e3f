package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/expr"
	"github.com/coterie-dev/coterie/format"
	"github.com/coterie-dev/coterie/rw"
	"github.com/coterie-dev/coterie/set"
	"github.com/coterie-dev/coterie/systems"
)

// The configurations of replicated systems (ZooKeeper, etcd, Cassandra,
// MongoDB, Flexible Paxos) are read wherever a quorum file is: named by
// --input-format, or recognised from the content. A configuration with one
// kind of quorum is a coterie; one whose reads and writes differ is a
// read-write system.

// systemFormatNames lists the configuration formats, for help and
// completion.
func systemFormatNames() []string {
	var names []string
	for _, f := range systems.Formats() {
		names = append(names, f.Name)
	}
	return names
}

// isSystemFormat reports whether --input-format names a configuration
// format.
func isSystemFormat(flag string) bool {
	_, ok := systems.Lookup(flag)
	return ok
}

// systemFormat returns the configuration format of a file: the one
// --input-format names, or, with no flag, the one that recognises the
// content. ok is false for a quorum file.
func systemFormat(path string, data []byte, flag string) (systems.Format, bool) {
	if flag != "" {
		return systems.Lookup(flag)
	}
	return systems.Sniff(path, data)
}

// parseSystemConfig parses a configuration; a malformed one is an input error
// (exit 2) naming the file and line.
func parseSystemConfig(name string, data []byte, f systems.Format) (*systems.Config, error) {
	cfg, err := f.Parse(name, data)
	if err != nil {
		var se *systems.SyntaxError
		if errors.As(err, &se) {
			return nil, asInputError(name, se.Line, se.Msg)
		}
		return nil, asInputError(name, 0, err.Error())
	}
	return cfg, nil
}

// configFamilies lists a configuration's read and write quorums.
func configFamilies(ctx context.Context, name string, cfg *systems.Config) (reads, writes *set.Family, err error) {
	reads, writes, err = cfg.Families(ctx, rw.DefaultListLimit)
	if err != nil {
		return nil, nil, configListError(name, err)
	}
	return reads, writes, nil
}

// configListError is the error of listing the quorums of configuration
// name.
func configListError(name string, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, set.ErrTooMany):
		return asInputError(name, 0, "more than "+strconv.Itoa(rw.DefaultListLimit)+" minimal quorums: too many to list")
	}
	return asInputError(name, 0, strings.TrimPrefix(err.Error(), "systems: "))
}

// configSystem reads a configuration as one list of quorums: a coterie's,
// or a read-write system's, which the command cannot take.
func configSystem(ctx context.Context, name string, data []byte, f systems.Format) (set.System, error) {
	cfg, err := parseSystemConfig(name, data, f)
	if err != nil {
		return set.System{}, err
	}
	if !cfg.IsCoterie() {
		return set.System{}, usageErrorf("%s: a %s configuration whose reads and writes differ is a read-write system, which this command does not take", name, cfg.System)
	}
	if k, ok := cfg.Threshold(); ok {
		f := set.NewThreshold(cfg.N(), k)
		f.Labels = cfg.Labels
		return set.System{Family: f}, nil
	}
	reads, _, err := configFamilies(ctx, name, cfg)
	if err != nil {
		return set.System{}, err
	}
	return set.System{Family: reads}, nil
}

// configRWSource reads a configuration as a read-write system's sides.
func configRWSource(ctx context.Context, name string, data []byte, f systems.Format) (*rwSource, error) {
	cfg, err := parseSystemConfig(name, data, f)
	if err != nil {
		return nil, err
	}
	// The configuration's datacentres (or groups) are its nodes' failure
	// domains, as a nodes file's domain column gives them.
	var placed []format.NodeAttrs
	if cfg.Domains != nil {
		for v, d := range cfg.Domains {
			placed = append(placed, format.NodeAttrs{Node: v, Label: cfg.Labels[v], Domain: d})
		}
	}
	u := format.NewUniverse(cfg.N(), cfg.Labels, true)
	if cfg.ReadExpr != nil {
		return &rwSource{u: u, reads: cfg.ReadExpr, writes: cfg.WriteExpr, fileNodes: placed, fileName: name}, nil
	}
	reads, writes, err := configFamilies(ctx, name, cfg)
	if err != nil {
		return nil, err
	}
	return &rwSource{u: format.NewUniverse(reads.N, cfg.Labels, true),
		reads: expr.FromFamily(reads), writes: expr.FromFamily(writes), readList: reads, writeList: writes,
		fileNodes: placed, fileName: name}, nil
}

// configIsRW reports whether a command's one file is a configuration whose
// reads and writes differ.
func configIsRW(cmd *cobra.Command, path string, data []byte) bool {
	flag := ""
	if f := cmd.Flags().Lookup("input-format"); f != nil {
		flag = f.Value.String()
	}
	sf, ok := systemFormat(path, data, flag)
	if !ok {
		return false
	}
	cfg, err := sf.Parse(displayName(path), data)
	return err == nil && !cfg.IsCoterie()
}

// stdinConfigIsRW reports whether standard input, named a configuration by
// --input-format, is one whose reads and writes differ. It reads standard
// input (at most a configuration's size and one byte) and puts what it
// read back, so that the command reads it again.
//
// A read that waits is abandoned when the command's context ends, as
// readSystem abandons one: standard input then reads as that error.
func stdinConfigIsRW(cmd *cobra.Command, s *streams) bool {
	f := cmd.Flags().Lookup("input-format")
	if f == nil || !isSystemFormat(f.Value.String()) {
		return false
	}
	type result struct {
		data []byte
		err  error
	}
	in := s.in
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(in, maxConfigBytes+1))
		done <- result{data, err}
	}()
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	select {
	case r := <-done:
		s.in = io.MultiReader(bytes.NewReader(r.data), in)
		return r.err == nil && configIsRW(cmd, "-", r.data)
	case <-ctx.Done():
		s.in = errReader{ctx.Err()}
		return false
	}
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// maxConfigBytes is more than any configuration file.
const maxConfigBytes = 1 << 20

// inputContext is the context of the command whose flags o are.
func inputContext(o inputOptions) context.Context {
	if o.cmd != nil && o.cmd.Context() != nil {
		return o.cmd.Context()
	}
	return context.Background()
}

// readConfigFile reads a configuration file named on the command line.
func readConfigFile(ctx context.Context, s *streams, path string, in inputOptions) (*systems.Config, error) {
	name := displayName(path)
	flag := in.format
	data, err := readData(ctx, s, path, in)
	if err != nil {
		return nil, err
	}
	f, ok := systemFormat(path, data, flag)
	if !ok {
		if flag != "" {
			return nil, usageErrorf("--input-format: unknown configuration format %q (want %s)", flag, strings.Join(systemFormatNames(), ", "))
		}
		return nil, asInputError(name, 0, "not a configuration coterie recognises (give --input-format "+strings.Join(systemFormatNames(), "|")+")")
	}
	return parseSystemConfig(name, data, f)
}

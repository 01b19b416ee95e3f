package systems

import (
	"fmt"
	"slices"
)

// Format is one kind of configuration file coterie reads.
type Format struct {
	// Name is the format's name for --input-format: "zookeeper", "etcd",
	// "cassandra", "mongodb" or "fpaxos".
	Name string
	// Sniff reports whether a file of this name and content is in this
	// format, without parsing all of it. It must be cheap and must not
	// claim another format's files.
	Sniff func(name string, data []byte) bool
	// Parse reads a configuration; name is the file's name for errors.
	// Malformed input is a *SyntaxError.
	Parse func(name string, data []byte) (*Config, error)
}

// Formats returns every format, sorted by name.
func Formats() []Format {
	fs := []Format{cassandraFormat, etcdFormat, fpaxosFormat, mongodbFormat, zookeeperFormat}
	slices.SortFunc(fs, func(a, b Format) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return fs
}

// Lookup returns the format called name.
func Lookup(name string) (Format, bool) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Sniff returns the format of a file of this name and content, if one of
// the formats recognises it.
func Sniff(name string, data []byte) (Format, bool) {
	for _, f := range Formats() {
		if f.Sniff(name, data) {
			return f, true
		}
	}
	return Format{}, false
}

// SyntaxError is a malformed configuration: the file, the line (1-based;
// 0 when the problem has no line) and what is wrong.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func syntaxErrorf(file string, line int, format string, args ...any) *SyntaxError {
	return &SyntaxError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// IsConfig reports whether a file of this name and content is a
// configuration one of the formats recognises.
func IsConfig(name string, data []byte) bool {
	_, ok := Sniff(name, data)
	return ok
}

// Package jsonreport holds the JSON reports of coterie's commands as Go
// types: the shape each command writes with --json (field names, order and
// omissions as docs/formats.md and the command's help describe them), and
// the conversion from the libraries' typed results to that shape.
//
// A Go program reads a command's output by unmarshalling it into the type
// of that command's report, and writes one as the command does by building
// the type from the library's result and marshalling it. The libraries
// themselves carry no JSON tags: their results are Go values, and this
// package is where their encoding is decided.
package jsonreport

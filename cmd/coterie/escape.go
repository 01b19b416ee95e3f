package main

import "github.com/coterie-dev/coterie/internal/textsafe"

// The escaping of names, labels and kinds shown to people (package
// textsafe): a message keeps its line breaks and tabs, a field does not,
// and a CSV report's cells are never formulas.
var (
	escapeTerminal = textsafe.Terminal
	escapeField    = textsafe.Field
	newCSVReport   = textsafe.NewCSV
)

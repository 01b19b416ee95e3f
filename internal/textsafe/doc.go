// Package textsafe escapes untrusted text (file names, labels, kinds) for
// a terminal and for CSV reports: control characters, the bidirectional
// overrides that reorder text and bytes that are not UTF-8 are shown as
// Go-style escapes, so that no escape sequence, carriage return or bell
// reaches a terminal raw, and a CSV cell that a spreadsheet would run as
// a formula is quoted (OWASP's rule). It is not part of the API.
package textsafe

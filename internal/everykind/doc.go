// Package everykind holds a test, and no code: every exported function of
// packages verify, domination, availability and measure, run on one
// instance of every construction kind, listed and (for the kinds that may
// be) implicit. None may panic, and on an implicit family small enough to
// list every answer must equal the listed family's.
package everykind

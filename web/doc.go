// Package web is coterie's local explorer: an HTTP handler that serves a
// single page (plain HTML, CSS and JavaScript embedded in the binary) and
// a small JSON API over the same library calls as the command line —
// construct, format, verify, domination, measure, availability, draw and
// report.
//
// The handler keeps the systems it has analysed in memory (a bounded
// cache) and writes nothing to disk. Every request body is limited in
// size, every analysis runs under the request's context with a time
// budget, so a closed browser tab or a timeout stops the work, and at most
// a few analyses run at once.
package web

// Package report writes a one-page report on quorum systems, as a
// self-contained HTML page (inline SVG and CSS, no script, no external
// resource) or as Markdown: for each system its drawing, the verification
// with witnesses, the metrics of `coterie info`, domination with the
// witness drawn, the availability in nines, and the message counts of the
// mutual exclusion protocols; for several systems a comparison.
//
// [Analyze] computes the figures through the same library calls as the
// command line (verify, domination, measure, availability, draw), each
// within a time budget; [WriteHTML] and [WriteMarkdown] render them. The
// same systems and options give the same bytes.
package report

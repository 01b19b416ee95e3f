package expr

import (
	"fmt"
	"strconv"

	"github.com/coterie-dev/coterie/set"
)

// SyntaxError is a parse error at a 1-based column (byte offset + 1) of the
// expression text.
type SyntaxError struct {
	Col int
	Msg string
}

// Error formats the error as "expr: column N: what".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("expr: column %d: %s", e.Col, e.Msg)
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// Parse reads an expression:
//
//	expr   = term { "+" term }
//	term   = factor { "*" factor }
//	factor = NAME | ID | "(" expr ")" | "choose" "(" K "," expr { "," expr } ")"
//
// A NAME is a letter or "_" followed by letters, digits, "_", "." or "-";
// an ID is a decimal node id (1 or more). Leaves come back unbound (Node
// −1; see [Expr.Bind]). Errors are *[SyntaxError] with the column.
func Parse(s string) (*Expr, error) { return ParseLimit(s, 0) }

// nodeBytes is about what one node of a parsed expression takes: the
// Expr, its pointer in its parent's arguments and their slack.
const nodeBytes = 96

// ParseLimit is [Parse] refusing, with an error wrapping
// [set.ErrMemoryBudget], an expression whose tree would take more than
// maxBytes (0: no limit). A tree takes up to a hundred times the bytes
// of its text ("1+1+…" is two bytes a node).
func ParseLimit(s string, maxBytes int64) (*Expr, error) {
	p := &parser{s: s, left: -1}
	if maxBytes > 0 {
		p.left, p.max = maxBytes, maxBytes
	}
	p.next()
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.tok != tokEOF {
		return nil, p.errorf("unexpected %s", p.describe())
	}
	return e, nil
}

type token int

const (
	tokEOF token = iota
	tokName
	tokNum
	tokPlus
	tokStar
	tokLParen
	tokRParen
	tokComma
	tokBad
)

type parser struct {
	s   string
	pos int // offset after the current token
	tok token
	lit string
	col int // column of the current token
	// left is what the tree may still take, in bytes (−1: no limit), of
	// max; err is set once the tree would take more.
	left, max int64
	err       error
}

// grow counts k more nodes of the tree against its budget.
func (p *parser) grow(k int) error {
	if p.left < 0 || p.err != nil {
		return p.err
	}
	p.left -= int64(k) * nodeBytes
	if p.left < 0 {
		p.err = fmt.Errorf("expr: at column %d the expression takes more than %d MiB: %w", p.col, p.max>>20, set.ErrMemoryBudget)
	}
	return p.err
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

func (p *parser) next() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n' || p.s[p.pos] == '\r') {
		p.pos++
	}
	p.col = p.pos + 1
	if p.pos >= len(p.s) {
		p.tok, p.lit = tokEOF, ""
		return
	}
	start := p.pos
	c := p.s[p.pos]
	switch {
	case isLetter(c):
		for p.pos < len(p.s) && (isLetter(p.s[p.pos]) || isDigit(p.s[p.pos]) || p.s[p.pos] == '.' || p.s[p.pos] == '-') {
			p.pos++
		}
		p.tok = tokName
	case isDigit(c):
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
		p.tok = tokNum
	default:
		p.pos++
		switch c {
		case '+':
			p.tok = tokPlus
		case '*':
			p.tok = tokStar
		case '(':
			p.tok = tokLParen
		case ')':
			p.tok = tokRParen
		case ',':
			p.tok = tokComma
		default:
			p.tok = tokBad
		}
	}
	p.lit = p.s[start:p.pos]
}

func (p *parser) describe() string {
	switch p.tok {
	case tokEOF:
		return "end of expression"
	case tokBad:
		return fmt.Sprintf("character %q", p.lit)
	default:
		return fmt.Sprintf("%q", p.lit)
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Col: p.col, Msg: fmt.Sprintf(format, args...)}
}

// expr parses terms joined by "+".
func (p *parser) expr(depth int) (*Expr, error) {
	if depth > maxDepth {
		return nil, p.errorf("expression nested more than %d deep", maxDepth)
	}
	return p.list(tokPlus, func() (*Expr, error) { return p.term(depth) }, NewOr)
}

// term parses factors joined by "*".
func (p *parser) term(depth int) (*Expr, error) {
	return p.list(tokStar, func() (*Expr, error) { return p.factor(depth) }, NewAnd)
}

// list parses operands joined by the operator op and combines them with
// join.
func (p *parser) list(op token, operand func() (*Expr, error), join func(...*Expr) *Expr) (*Expr, error) {
	var args []*Expr
	for {
		e, err := operand()
		if err != nil {
			return nil, err
		}
		args = append(args, e)
		if err := p.grow(1); err != nil {
			return nil, err
		}
		if p.tok != op {
			return join(args...), nil
		}
		p.next()
	}
}

func (p *parser) factor(depth int) (*Expr, error) {
	switch p.tok {
	case tokNum:
		v, err := strconv.Atoi(p.lit)
		if err != nil || v < 1 {
			return nil, p.errorf("node id %s is not in 1..n", p.lit)
		}
		e := Named(p.lit)
		p.next()
		return e, nil
	case tokName:
		if p.lit == "choose" {
			return p.choose(depth)
		}
		e := Named(p.lit)
		p.next()
		return e, nil
	case tokLParen:
		p.next()
		e, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.tok != tokRParen {
			return nil, p.errorf("expected \")\", found %s", p.describe())
		}
		p.next()
		return e, nil
	default:
		return nil, p.errorf("expected a node, \"(\" or choose, found %s", p.describe())
	}
}

func (p *parser) choose(depth int) (*Expr, error) {
	col := p.col
	p.next()
	if p.tok != tokLParen {
		return nil, p.errorf("expected \"(\" after choose, found %s", p.describe())
	}
	p.next()
	if p.tok != tokNum {
		return nil, p.errorf("expected the number K of choose(K, ...), found %s", p.describe())
	}
	kcol := p.col
	k, err := strconv.Atoi(p.lit)
	if err != nil {
		return nil, p.errorf("choose: K %s is too large", p.lit)
	}
	p.next()
	var args []*Expr
	for p.tok == tokComma {
		p.next()
		e, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	if p.tok != tokRParen {
		return nil, p.errorf("expected \",\" or \")\" in choose, found %s", p.describe())
	}
	if len(args) == 0 {
		return nil, &SyntaxError{Col: col, Msg: "choose needs at least one argument after K"}
	}
	if k < 1 || k > len(args) {
		return nil, &SyntaxError{Col: kcol, Msg: fmt.Sprintf("choose: K = %d is not in 1..%d", k, len(args))}
	}
	p.next()
	return &Expr{Op: Choose, K: k, Args: args}, nil
}

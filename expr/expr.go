package expr

import (
	"fmt"
	"strconv"
	"strings"
)

// Op is the kind of an expression node.
type Op int

// The operators. A Leaf is one node; Or holds when any argument holds, And
// when every argument holds, Choose when at least K arguments hold.
const (
	Leaf Op = iota
	Or
	And
	Choose
)

// Expr is a quorum expression. A leaf names a node by Name (a label or a
// 1-based id as written) and, once bound (see [Expr.Bind]), by its 0-based
// Node; an operator holds its Args, and Choose its K (1 ≤ K ≤ len(Args)).
//
// An Expr is not modified by any method of this package once built.
type Expr struct {
	Op   Op
	Name string
	Node int
	K    int
	Args []*Expr
}

// Node returns the leaf for 0-based node i, bound, named by its 1-based id.
func Node(i int) *Expr { return &Expr{Op: Leaf, Node: i, Name: strconv.Itoa(i + 1)} }

// Named returns an unbound leaf named name.
func Named(name string) *Expr { return &Expr{Op: Leaf, Name: name, Node: -1} }

// NewOr returns the or of args, flattening nested ors. It panics if args is
// empty.
func NewOr(args ...*Expr) *Expr { return flat(Or, args) }

// NewAnd returns the and of args, flattening nested ands. It panics if args
// is empty.
func NewAnd(args ...*Expr) *Expr { return flat(And, args) }

func flat(op Op, args []*Expr) *Expr {
	if len(args) == 0 {
		panic("expr: empty argument list")
	}
	if len(args) == 1 {
		return args[0]
	}
	e := &Expr{Op: op}
	for _, a := range args {
		if a.Op == op {
			e.Args = append(e.Args, a.Args...)
		} else {
			e.Args = append(e.Args, a)
		}
	}
	return e
}

// NewChoose returns choose(k, args...). It returns an error unless
// 1 ≤ k ≤ len(args).
func NewChoose(k int, args ...*Expr) (*Expr, error) {
	if k < 1 || k > len(args) {
		return nil, fmt.Errorf("expr: choose: k = %d is not in 1..%d", k, len(args))
	}
	return &Expr{Op: Choose, K: k, Args: args}, nil
}

// Threshold returns choose(k, 1..n) over the bound nodes 0..n-1: every
// k-subset of n nodes. It panics unless 1 ≤ k ≤ n.
func Threshold(n, k int) *Expr {
	args := make([]*Expr, n)
	for i := range args {
		args[i] = Node(i)
	}
	e, err := NewChoose(k, args...)
	if err != nil {
		panic(err)
	}
	return e
}

// String prints e in the syntax [Parse] reads: "a*b*c + d*e*f",
// "choose(2, a, b, c)". Parsing the result gives back an equal expression.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, false)
	return b.String()
}

func (e *Expr) write(b *strings.Builder, inAnd bool) {
	switch e.Op {
	case Leaf:
		b.WriteString(e.label())
	case Or:
		if inAnd {
			b.WriteByte('(')
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(" + ")
			}
			a.write(b, false)
		}
		if inAnd {
			b.WriteByte(')')
		}
	case And:
		for i, a := range e.Args {
			if i > 0 {
				b.WriteByte('*')
			}
			a.write(b, true)
		}
	case Choose:
		fmt.Fprintf(b, "choose(%d", e.K)
		for _, a := range e.Args {
			b.WriteString(", ")
			a.write(b, false)
		}
		b.WriteByte(')')
	}
}

func (e *Expr) label() string {
	if e.Name != "" {
		return e.Name
	}
	return strconv.Itoa(e.Node + 1)
}

// Equal reports whether e and f are the same tree (same operators, K,
// argument order and leaves). Two different trees may still have the same
// quorums.
func Equal(e, f *Expr) bool {
	if e.Op != f.Op || e.K != f.K || len(e.Args) != len(f.Args) {
		return false
	}
	if e.Op == Leaf {
		return e.Name == f.Name && e.Node == f.Node
	}
	for i := range e.Args {
		if !Equal(e.Args[i], f.Args[i]) {
			return false
		}
	}
	return true
}

// Dual returns the dual expression: + and * swapped, choose(k) of n
// arguments becomes choose(n−k+1). A set is a quorum of the dual exactly
// when it meets every quorum of e, so the dual's minimal quorums are the
// minimal transversals of e's.
func (e *Expr) Dual() *Expr {
	switch e.Op {
	case Leaf:
		c := *e
		return &c
	case Or, And:
		d := &Expr{Op: Or + And - e.Op, Args: make([]*Expr, len(e.Args))}
		for i, a := range e.Args {
			d.Args[i] = a.Dual()
		}
		return d
	default:
		d := &Expr{Op: Choose, K: len(e.Args) - e.K + 1, Args: make([]*Expr, len(e.Args))}
		for i, a := range e.Args {
			d.Args[i] = a.Dual()
		}
		return d
	}
}

// Leaves calls yield on every leaf, left to right.
func (e *Expr) Leaves(yield func(*Expr)) {
	if e.Op == Leaf {
		yield(e)
		return
	}
	for _, a := range e.Args {
		a.Leaves(yield)
	}
}

// Bind returns a copy of e whose leaves carry 0-based nodes, as resolve
// maps each leaf's name; resolve's error is returned with the leaf's name.
func (e *Expr) Bind(resolve func(name string) (int, error)) (*Expr, error) {
	if e.Op == Leaf {
		v, err := resolve(e.Name)
		if err != nil {
			return nil, err
		}
		return &Expr{Op: Leaf, Name: e.Name, Node: v}, nil
	}
	c := &Expr{Op: e.Op, K: e.K, Args: make([]*Expr, len(e.Args))}
	for i, a := range e.Args {
		b, err := a.Bind(resolve)
		if err != nil {
			return nil, err
		}
		c.Args[i] = b
	}
	return c, nil
}

// MaxNode returns the largest bound node in e, or -1.
func (e *Expr) MaxNode() int {
	m := -1
	e.Leaves(func(l *Expr) { m = max(m, l.Node) })
	return m
}

// Relabel returns a copy of e whose leaves are named by labels (node v
// gets labels[v]), the nodes themselves unchanged; it is how a formula is
// shown with a system's labels. It panics if a node is not below
// len(labels).
func (e *Expr) Relabel(labels []string) *Expr {
	if e.Op == Leaf {
		return &Expr{Op: Leaf, Node: e.Node, Name: labels[e.Node]}
	}
	c := &Expr{Op: e.Op, K: e.K, Args: make([]*Expr, len(e.Args))}
	for i, a := range e.Args {
		c.Args[i] = a.Relabel(labels)
	}
	return c
}

package protocol

import (
	"context"
	"errors"
	"testing"

	"github.com/coterie-dev/coterie/set"
)

// Every refusal is a *Error whose Msg is the message without the package
// prefix, so that the command can name its own flag before it.
func TestErrorTyped(t *testing.T) {
	sys, err := NewSystem(set.System{Family: triangle(1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	explore := func(cfg ExploreConfig) error {
		_, err := Explore(ctx, orderedSpec, sys, cfg)
		return err
	}
	for _, tt := range []struct {
		name string
		err  error
		msg  string
	}{
		{"dist", second(ParseDist("normal:1")), `distribution "normal:1": want const:X, exp:MEAN or uniform:A:B`},
		{"dist bounds", second(ParseDist("uniform:3:1")), `distribution "uniform:3:1": the bounds are reversed`},
		{"load", second(ParseLoad("busy")), `load "busy": want light, heavy or poisson:RATE`},
		{"system", second(NewSystem(set.System{Family: set.NewFamily(3)})), "the system has no quorums"},
		{"requests", explore(ExploreConfig{Requests: 101}), "explore: 101 requests, 1 rounds: far beyond what an exhaustive search can cover"},
		{"requester", explore(ExploreConfig{Requesters: []int{3}}), "explore: requester 4 is not a node 1..3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var pe *Error
			if !errors.As(tt.err, &pe) {
				t.Fatalf("error %v (%T) is not a *protocol.Error", tt.err, tt.err)
			}
			if pe.Msg != tt.msg || pe.Error() != "protocol: "+tt.msg {
				t.Errorf("Msg = %q, Error() = %q, want %q", pe.Msg, pe.Error(), tt.msg)
			}
		})
	}
}

// A cause wrapped with %w stays visible to errors.Is.
func TestErrorUnwrap(t *testing.T) {
	err := errorf("explore: %w", set.ErrMemoryBudget)
	if !errors.Is(err, set.ErrMemoryBudget) {
		t.Errorf("%v does not wrap set.ErrMemoryBudget", err)
	}
	if got, want := err.Error(), "protocol: explore: "+set.ErrMemoryBudget.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func second[T any](_ T, err error) error { return err }

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/coterie-dev/coterie/web"
)

type serveOptions struct {
	addr    string
	budget  time.Duration
	timeout time.Duration
	maxBody int64 // set through a byteSize; 4 MiB unless given
}

func newServeCmd(s *streams) *cobra.Command {
	var o serveOptions
	o.maxBody = 4 << 20
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Local web explorer: build, draw, verify and compare systems in the browser",
		Long: `Serve the explorer on --addr (localhost by default): choose a construction and
its parameters or upload a file, and see the drawing, verification,
domination, availability and metrics; click nodes to fail them and see which
quorums survive; compare systems side by side; download a system in any
format and the report.

The server writes nothing to disk, limits request bodies (--max-body), the
memory an upload is estimated to need, the size of answers, and the time of
each figure (--budget) and request (--request-timeout, counted from when a
worker takes it up); a closed tab cancels its work. It answers only requests
that name it (--addr, localhost or 127.0.0.1 with its port), refuses requests
from other web sites, and asks the page's own requests for a token it puts in
the page. It stops on Ctrl-C.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	f.DurationVar(&o.budget, "budget", 2*time.Second, "time allowed to each long figure of an analysis")
	f.DurationVar(&o.timeout, "request-timeout", 30*time.Second, "time allowed to a whole request")
	f.Var((*byteSize)(&o.maxBody), "max-body", "largest request body (an uploaded file): a size such as 4MiB or 500KB")
	return cmd
}

func runServe(ctx context.Context, s *streams, o serveOptions) error {
	if o.budget <= 0 || o.timeout <= 0 || o.maxBody <= 0 {
		return usageErrorf("--budget, --request-timeout and --max-body must be positive")
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return usageErrorf("--addr %s: %v", o.addr, err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("serve: %w", err)}
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(s.err, "coterie: warning: %s is reachable from other machines; the explorer has no authentication\n", o.addr)
	}
	srv := &http.Server{
		Handler:           web.New(web.Options{Addr: ln.Addr().String(), MaxBody: o.maxBody, Budget: o.budget, Timeout: o.timeout}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(s.err, "coterie: explorer at http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// Stopped by Ctrl-C or --timeout: the exit status says which.
	return ctx.Err()
}

package main

import (
	"context"
	"errors"
	"time"
)

// isStopped reports whether err is a context's error: the command was
// stopped by --timeout or a signal, and run maps it to 124, 130 or 143.
// Such an error must reach run as it is, not wrapped in a usage error.
func isStopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// stopGrace is how long a command has, once its --timeout has passed or
// a signal has cancelled its context, to print what it has and return.
// Every long computation watches its context and stops within a second;
// past stopGrace the process ends anyway (the temporary files removed, so
// an old output file is left as it was), with the status the command
// would have had: a computation that missed its context never keeps the
// process running past the limit it was given.
const stopGrace = 2 * time.Second

// watchStop ends the process with the --timeout status if ctx passes its
// deadline and the command has not returned stopGrace later. It does
// nothing for streams without stop (a command run in-process).
func (s *streams) watchStop(ctx context.Context) {
	if s.stop == nil {
		return
	}
	go func() {
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return // the command returned, or a signal stopped it
		}
		time.Sleep(stopGrace)
		s.stop(exitTimeout, timeoutMessage)
	}()
}

// cellBytes is about what one filled cell of a drawn incidence matrix
// takes, as a shape and then as SVG (a quorum of 10^6 nodes peaked at
// 560 MB), with room to spare.
const cellBytes = 1 << 10

// drawnCells is the most filled cells a drawing may have within the
// memory budget maxMem (0: no limit).
func drawnCells(maxMem int64) int {
	if maxMem <= 0 {
		return 0
	}
	return int(max(maxMem/cellBytes, 1))
}

//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

var errNoUnnamed = errors.New("atomicfile: no unnamed files on this system")

func openUnnamed(string, os.FileMode) (*os.File, error) { return nil, errNoUnnamed }

func linkName(*os.File, string) error { return errNoUnnamed }

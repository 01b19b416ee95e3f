// Package atomicfile writes an output file so that it ends up exactly where
// and how the user meant, or not at all.
//
// What happens depends on what the path names when [Create] is called:
//
//   - nothing: a new file is written under a temporary name in the same
//     folder and renamed into place once complete; it gets mode 0666
//     less the umask, as a file made by the shell would.
//   - a regular file: the same, and the new file keeps the old one's mode
//     (and, where the process may, its owner and group; not its extended
//     attributes or ACLs). Readers see the
//     old content or the new, never a mix, and a failure leaves the old file
//     as it was.
//   - a regular file with more than one hard link: the new content is first
//     written in full to a temporary file, then copied into the existing
//     file in place, so that every name of the file sees it. The old
//     content is first copied aside (when there is no room for that copy,
//     the write is refused and the file left as it was); a copy that fails
//     (a full disk) puts the old content back. Only a crash during the copy
//     itself can leave the file partly written.
//   - a symbolic link: it is followed (through any chain of links, even to a
//     target that does not yet exist) and the target is written as above;
//     the link stays a link.
//   - a device, FIFO or socket: it is opened for writing and written
//     directly; nothing is renamed over it and no temporary file is made.
//   - a folder: an error.
//
// Where the file system allows (Linux, O_TMPFILE), the new content is
// written to a file with no name, which vanishes if the process dies, even
// by SIGKILL; it gets a temporary name only for the moment between being
// complete and being renamed into place. Elsewhere temporary names are
// ".NAME.RANDOM.tmp" in the target's folder, with NAME shortened so that
// the whole name fits in 255 bytes.
package atomicfile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
	"unicode/utf8"
)

// nameMax is the longest file name (in bytes) of the common file systems.
const nameMax = 255

// maxLinks bounds how many symbolic links are followed, as the kernel does.
const maxLinks = 40

// How a [File] reaches its target.
type mode int

const (
	modeRename mode = iota // temp file renamed over the target
	modeCopy               // temp file copied into the hard-linked target
	modeDirect             // the target itself (device, FIFO, socket)
)

// File is an output being written. Write to it, then call [File.Commit] to
// put it in place, or [File.Abort] to drop it. Abort after Commit does
// nothing, so "defer f.Abort()" is the usual pattern.
type File struct {
	path   string // as given
	target string // path with symbolic links resolved
	tmp    string // temporary file: "" when writing directly or while unnamed
	dir    string // the target's folder
	base   string // the target's name
	f      *os.File
	mode   mode
	perm   fs.FileMode
	keep   bool // chmod (and chown) the temp file to the old file's
	uid    int
	gid    int
	done   bool
}

// Create opens path for writing as the package comment describes.
func Create(path string) (*File, error) { return CreateContext(context.Background(), path) }

// CreateContext is [Create] with a context that abandons the wait for a
// reader when path is a FIFO nobody reads yet.
func CreateContext(ctx context.Context, path string) (*File, error) {
	fi, err := os.Stat(path) // through every link, the kernel's own included
	switch {
	case errors.Is(err, fs.ErrNotExist):
		target, err := resolve(path)
		if err != nil {
			return nil, err
		}
		return create(path, target, nil)
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, &fs.PathError{Op: "write", Path: path, Err: errors.New("is a folder, not a file")}
	case !fi.Mode().IsRegular():
		// A device, FIFO or socket (or /dev/stdout leading to a pipe):
		// write to it, never replace it.
		f, err := openDirect(ctx, path, fi)
		if err != nil {
			return nil, err
		}
		return &File{path: path, target: path, f: f, mode: modeDirect}, nil
	}
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if tfi, err := os.Lstat(target); err != nil || !os.SameFile(fi, tfi) {
		return nil, &fs.PathError{Op: "write", Path: path, Err: errors.New("cannot tell which file the links lead to")}
	}
	return create(path, target, fi)
}

// fifoPoll is how often CreateContext looks for a FIFO's reader.
const fifoPoll = 20 * time.Millisecond

// openDirect opens a device, FIFO or socket for writing. Opening a FIFO
// waits for a reader; it waits here in a way ctx can end.
func openDirect(ctx context.Context, path string, fi fs.FileInfo) (*os.File, error) {
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(path, os.O_WRONLY, 0)
	}
	for {
		// Without a reader a non-blocking open fails with ENXIO at once.
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(fifoPoll):
		}
	}
}

// resolve follows symbolic links from path to the file they name, which
// need not exist.
func resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", &fs.PathError{Op: "write", Path: path, Err: syscall.ELOOP}
}

// create makes the temporary file for a new (old == nil) or regular target.
func create(path, target string, old fs.FileInfo) (*File, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	perm := fs.FileMode(0o666) // a new file: the umask decides
	af := &File{path: path, target: target, mode: modeRename}
	if old != nil {
		perm = 0o600 // widened to the old mode at Commit
		af.keep, af.perm, af.uid, af.gid = true, old.Mode().Perm(), -1, -1
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			af.uid, af.gid = int(st.Uid), int(st.Gid)
			if st.Nlink > 1 {
				af.mode = modeCopy
			}
		}
	}
	af.dir, af.base = dir, base
	if f, err := openUnnamed(dir, perm); err == nil {
		af.f = f // named only at Commit
		return af, nil
	}
	var err error
	for range 10 {
		af.tmp = filepath.Join(dir, TempName(base))
		af.f, err = os.OpenFile(af.tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return af, nil
}

// TempName returns a fresh temporary name for a file called base:
// ".BASE.RANDOM.tmp", with BASE shortened (at a character boundary) so
// that the name fits in 255 bytes.
func TempName(base string) string {
	var r [6]byte
	_, _ = rand.Read(r[:])
	suffix := "." + hex.EncodeToString(r[:]) + ".tmp"
	room := nameMax - 1 - len(suffix)
	if len(base) > room {
		base = base[:room]
		for len(base) > 0 && !utf8.RuneStart(base[len(base)-1]) {
			base = base[:len(base)-1]
		}
		if r, size := utf8.DecodeLastRuneInString(base); r == utf8.RuneError && size == 1 {
			base = base[:len(base)-1]
		}
	}
	return "." + base + suffix
}

// Write writes to the output.
func (af *File) Write(p []byte) (int, error) { return af.f.Write(p) }

// TempPath is the temporary file being written: "" when the target is
// written directly or the file has no name yet. A caller that may be
// interrupted keeps it to remove.
func (af *File) TempPath() string { return af.tmp }

// Target is the file that gets the content: the path with symbolic links
// resolved.
func (af *File) Target() string { return af.target }

// Direct reports whether the target is written directly (a device, FIFO or
// socket).
func (af *File) Direct() bool { return af.mode == modeDirect }

// Commit puts the written content in place: it syncs the temporary file to
// disk, gives it the old file's mode and renames it over the target (or
// copies it into a hard-linked target), then syncs the folder. On error the
// target is as it was (except for a failed in-place copy) and the temporary
// file is gone.
func (af *File) Commit() error {
	if af.done {
		return errors.New("atomicfile: commit after commit or abort")
	}
	af.done = true
	if af.mode == modeDirect {
		return af.f.Close()
	}
	err := af.commit()
	if err != nil {
		af.f.Close()
		if af.tmp != "" {
			os.Remove(af.tmp)
		}
	}
	return err
}

func (af *File) commit() error {
	if err := af.f.Sync(); err != nil {
		return err
	}
	if af.mode == modeCopy {
		return af.copyInPlace()
	}
	if af.keep {
		if err := af.f.Chmod(af.perm); err != nil {
			return err
		}
		if af.uid >= 0 && (af.uid != os.Geteuid() || af.gid != os.Getegid()) {
			_ = af.f.Chown(af.uid, af.gid) // best effort: only root may give a file away
		}
	}
	if af.tmp == "" {
		// An unnamed file: name it for the moment before the rename.
		var err error
		for range 10 {
			tmp := filepath.Join(af.dir, TempName(af.base))
			if err = linkName(af.f, tmp); err == nil {
				af.tmp = tmp
				break
			}
			if !errors.Is(err, fs.ErrExist) {
				return err
			}
		}
		if err != nil {
			return err
		}
	}
	if err := af.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(af.tmp, af.target); err != nil {
		return err
	}
	syncDir(filepath.Dir(af.target))
	return nil
}

// copyInPlace copies the complete temporary file into the hard-linked
// target and removes the temporary file.
func (af *File) copyInPlace() error {
	if _, err := af.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// The old content, aside: put back if the copy fails.
	old, err := keepAside(af.target)
	if err != nil {
		return fmt.Errorf("%w (a hard-linked file is written in place, and there is no room to keep its old content aside while it is: the file is left as it was)", err)
	}
	defer func() {
		old.Close()
		os.Remove(old.Name())
	}()
	dst, err := os.OpenFile(af.target, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer dst.Close()
	err = dst.Truncate(0)
	if err == nil {
		_, err = io.Copy(dst, af.f)
	}
	if err == nil {
		err = dst.Sync()
	}
	if err != nil {
		if rerr := putBack(dst, old); rerr != nil {
			return fmt.Errorf("%w (the file may be partly written: putting its old content back failed: %v)", err, rerr)
		}
		return fmt.Errorf("%w (the file keeps its old content)", err)
	}
	if err := dst.Close(); err != nil {
		return err
	}
	af.f.Close()
	if af.tmp == "" {
		return nil // unnamed: gone with its last descriptor
	}
	return os.Remove(af.tmp)
}

// syncDir makes a rename in dir durable; file systems that cannot sync a
// folder are left alone.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

// Abort drops what was written: the temporary file is removed and the
// target left as it was. It does nothing after Commit.
func (af *File) Abort() {
	if af.done {
		return
	}
	af.done = true
	af.f.Close()
	if af.tmp != "" {
		os.Remove(af.tmp)
	}
}

// keepAside copies the file at path to a new temporary file in its folder
// and returns it, open, synced and at offset 0.
func keepAside(path string) (*os.File, error) {
	src, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dir, base := filepath.Split(path)
	if len(base) > 100 {
		base = base[:100]
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.old")
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(tmp, src)
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	return tmp, nil
}

// putBack writes the old content into dst again, in place.
func putBack(dst, old *os.File) error {
	if err := dst.Truncate(0); err != nil {
		return err
	}
	if _, err := dst.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := old.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(dst, old); err != nil {
		return err
	}
	return dst.Sync()
}

package atomicfile

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

const (
	oTmpfile        = 0o20000000 | syscall.O_DIRECTORY // O_TMPFILE
	atFDCWD         = -0x64                            // AT_FDCWD
	atSymlinkFollow = 0x400                            // AT_SYMLINK_FOLLOW
)

// openUnnamed opens a file in dir that has no name (O_TMPFILE): if the
// process dies, even by SIGKILL, the file system drops it. It fails where
// the file system or /proc cannot do this, and the caller falls back to a
// named temporary file.
func openUnnamed(dir string, perm os.FileMode) (*os.File, error) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return nil, err // linkName needs /proc
	}
	return os.OpenFile(dir, os.O_RDWR|oTmpfile, perm)
}

// linkName gives the unnamed file f the name path.
func linkName(f *os.File, path string) error {
	from, err := syscall.BytePtrFromString("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return err
	}
	to, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, uintptr(fd), uintptr(unsafe.Pointer(from)),
		uintptr(fd), uintptr(unsafe.Pointer(to)), atSymlinkFollow, 0)
	if errno != 0 {
		return &os.LinkError{Op: "link", Old: f.Name(), New: path, Err: errno}
	}
	return nil
}

package dbbench

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// ioErrorText words a file error as RocksDB's Status::ToString does for an
// IOError made from errno: "IO error: [No such file or directory: ]<context>:
// <path>: <strerror>", the bracketed part only for ENOENT (RocksDB's
// PathNotFound subcode), strerror with its capital letter as glibc writes it.
func ioErrorText(context, path string, err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return fmt.Sprintf("IO error: %s: %s: %v", context, path, err)
	}
	msg := errno.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	sub := ""
	if errno == syscall.ENOENT {
		sub = "No such file or directory: "
	}
	return fmt.Sprintf("IO error: %s%s: %s: %s", sub, context, path, msg)
}

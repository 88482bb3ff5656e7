//go:build linux

package lsm

import (
	"fmt"
	"os"
	"syscall"
)

// Extents of a mapped WAL made ahead of the writes.
//
// A mapped WAL (walmmap_linux.go) crosses into a new extent every MiB of
// log. Made by the writer, each crossing cost it an fallocate, an mmap
// with MAP_POPULATE and a munmap of the filled extent, and each page of
// the new extent a first store: on the 2-vCPU build machine MAP_POPULATE
// takes about 1.1 µs a page and the first store into a populated shared
// page another 4.4 µs (a store into a page mapped before takes 20 ns), so
// about 1.5 ms per MiB, some 2 s of the writer's 10 s in a 10M-key
// fillseq. The commit leader paid it while every other writer waited.
//
// So from its second extent on a mapped WAL has an extentMaker: a
// goroutine that keeps the next extent allocated, mapped and every page
// of it stored to once (a zero over the fallocated zero, so the bytes do
// not change), and unmaps the extents the writes have filled. The writer
// takes the next extent from a channel when it crosses into it, a
// receive that finds it ready; it waits only when it writes a MiB faster
// than the maker can make one. An error making an extent (no space) is
// the writer's error when it needs that extent, as it was before.
//
// The maker's extent is handed over through a channel, so its stores
// happen before the writer's; the writer never stores into an extent it
// has retired. The extent made ahead but never taken is unmapped by stop;
// the file's allocated tail beyond the writes is truncated by Close as
// before.
type extentMaker struct {
	ready   chan madeExtent // the next extent, once made
	retired chan []byte     // filled extents to unmap
	quit    chan struct{}
	done    chan error // the first munmap error (or nil), when the maker ends
}

// mapExtentFn and unmapFn are mapExtent and syscall.Munmap; tests replace
// them to see who calls them and to make them fail.
var (
	mapExtentFn = mapExtent
	unmapFn     = syscall.Munmap
)

// madeExtent is an extent made ahead, or why it could not be made.
type madeExtent struct {
	b   []byte
	err error
}

// startExtentMaker starts making f's extents of extent bytes from offset
// off on.
func startExtentMaker(f *os.File, off, extent int64) *extentMaker {
	x := &extentMaker{
		ready:   make(chan madeExtent),
		retired: make(chan []byte, 4),
		quit:    make(chan struct{}),
		done:    make(chan error, 1),
	}
	go x.run(f, off, extent)
	return x
}

// take returns the next extent, waiting for it if it is still being made.
func (x *extentMaker) take() ([]byte, error) {
	e := <-x.ready
	return e.b, e.err
}

// retire hands over a filled extent to be unmapped.
func (x *extentMaker) retire(b []byte) { x.retired <- b }

// stop ends the maker once it has unmapped every retired extent and the
// one it made ahead, and returns the first munmap error.
func (x *extentMaker) stop() error {
	close(x.quit)
	return <-x.done
}

func (x *extentMaker) run(f *os.File, off, extent int64) {
	var unmapErr error
	unmap := func(b []byte) {
		if err := unmapFn(b); err != nil && unmapErr == nil {
			unmapErr = fmt.Errorf("munmap WAL: %w", err)
		}
	}
	var next madeExtent
	made, failed := false, false
	for {
		if !made && !failed {
			next.b, next.err = mapExtentFn(f, off, extent)
			if next.err == nil {
				touchPages(next.b)
			}
			off += extent
			made, failed = true, next.err != nil
		}
		ready := x.ready
		if !made {
			ready = nil // the error was taken: nothing more to hand over
		}
		select {
		case ready <- next:
			made, next = false, madeExtent{}
		case b := <-x.retired:
			unmap(b)
		case <-x.quit:
			for drained := false; !drained; {
				select {
				case b := <-x.retired:
					unmap(b)
				default:
					drained = true
				}
			}
			if made && next.b != nil {
				unmap(next.b)
			}
			x.done <- unmapErr
			return
		}
	}
}

// touchPages stores a zero into the first byte of every page of b, which
// is all zeros: the first store into a page of a new mapping is the
// expensive one, and it is made here rather than by the writer.
func touchPages(b []byte) {
	page := os.Getpagesize()
	for i := 0; i < len(b); i += page {
		b[i] = 0
	}
}

package fileops

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReportNamesEveryCounterAndResets(t *testing.T) {
	var c Counters
	c.Opens.Add(3)
	c.DirOpened()
	c.DirClosed()
	c.Append(10, true)
	c.Append(7, false)
	c.Read(5, true)
	if err := OnSuccess(&c.Renames, errors.New("no")); err == nil {
		t.Fatal("OnSuccess lost the error")
	}
	OnSuccess(&c.Deletes, nil)
	got := c.Report()
	want := strings.Join([]string{
		"Num files opened: 4", "Num files deleted: 1", "Num files renamed: 0",
		"Num Flush(): 0", "Num Sync(): 0", "Num Fsync(): 0", "Num Dir Fsync(): 0",
		"Num Close(): 1", "Num Dir Open(): 1", "Num Dir Close(): 1",
		"Num Read(): 1", "Num Append(): 2", "Num bytes read: 5", "Num bytes written: 10",
	}, "\n") + "\n"
	if got != want {
		t.Fatalf("report:\n%s\nwant:\n%s", got, want)
	}
	if again := c.Report(); strings.Count(again, ": 0\n") != 14 {
		t.Fatalf("the second report does not start from zero:\n%s", again)
	}
}

func TestReaderAtCountsShortReadAtEnd(t *testing.T) {
	var c Counters
	r := ReaderAt{ReaderAt: strings.NewReader("abcdef"), Counts: &c}
	buf := make([]byte, 4)
	if n, err := r.ReadAt(buf, 4); n != 2 || !errors.Is(err, io.EOF) {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
	if _, err := r.ReadAt(buf, 100); err == nil {
		t.Fatal("read past the end succeeded")
	}
	if c.Reads.Load() != 2 || c.BytesRead.Load() != 2 {
		t.Fatalf("reads %d, bytes %d; want 2 reads, 2 bytes", c.Reads.Load(), c.BytesRead.Load())
	}
}

package pebble

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// syncBuffer is a bytes.Buffer safe for Pebble's background logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRuntimeWarningsOnce(t *testing.T) {
	var warn syncBuffer
	db, err := Opener{}.Open(t.TempDir(), testOptions(), &warn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wo := &engine.WriteOptions{DisableWAL: true}
	for i := 0; i < 3; i++ {
		if err := db.Put([]byte("k"), []byte("v"), wo); err != nil {
			t.Fatal(err)
		}
		if err := db.Compact(nil, nil, 2); err != nil {
			t.Fatal(err)
		}
	}
	got := warn.String()
	if strings.Count(got, "WAL is switched per database") != 1 {
		t.Errorf("WAL warning not printed exactly once:\n%s", got)
	}
	if strings.Count(got, "cannot compact to a chosen level") != 1 {
		t.Errorf("target-level warning not printed exactly once:\n%s", got)
	}
}

// TestWaitWithAutoCompactionsOff checks that WaitForCompactions returns when
// levels need compaction but automatic compactions are off.
func TestWaitWithAutoCompactionsOff(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	db := openTest(t, o)(t.TempDir())
	defer db.Close()
	for i := 0; i < 8; i++ {
		if err := db.Put([]byte{byte('a' + i)}, []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Property("rocksdb.num-files-at-level0"); v != "8" {
		t.Errorf("L0 files = %s, want 8 (nothing compacted)", v)
	}
	if v, _ := db.Property("rocksdb.compaction-pending"); v != "0" {
		t.Errorf("compaction-pending = %s with automatic compactions off", v)
	}
}

// TestBackgroundErrorRepeatsOnce checks that the same background error,
// which Pebble reports on every retry, prints once until another comes.
func TestBackgroundErrorRepeatsOnce(t *testing.T) {
	var buf bytes.Buffer
	l := &logger{w: &buf}
	for _, msg := range []string{"a", "a", "a", "b", "a", "a"} {
		l.backgroundError(errors.New(msg))
	}
	want := "ERROR: pebble: background error: a\nERROR: pebble: background error: b\nERROR: pebble: background error: a\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

package lsm

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func walFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".log") {
			logs = append(logs, e.Name())
		}
	}
	return logs
}

// TestSwitchKeepsEmptyWAL: memtables filled only by writes that skip the
// WAL share one WAL file; logged writes that follow go to it and survive a
// crash (a copy of the open DB's files) with the flushed unlogged ones;
// the first switch after a logged write makes a new WAL.
func TestSwitchKeepsEmptyWAL(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	defer db.Close()
	first := db.mu.logNum
	for i := range 30 {
		putUnlogged(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
		if i%10 == 9 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if db.mu.logNum != first {
		t.Fatalf("three switches of unlogged memtables moved the WAL from %d to %d", first, db.mu.logNum)
	}
	if logs := walFiles(t, dir); len(logs) != 1 {
		t.Fatalf("WAL files after three switches of unlogged memtables: %v, want one", logs)
	}
	for i := 30; i < 40; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	crashed := t.TempDir()
	copyDir(t, dir, crashed)
	reopened := mustOpen(t, crashed, testOptions())
	checkRange(t, reopened, 0, 40, true)
	if err := reopened.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if db.mu.logNum == first {
		t.Fatalf("the switch after logged writes kept WAL %d", first)
	}
}

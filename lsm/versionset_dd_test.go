package lsm

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/godbbench/godbbench/lsm/wal"
)

// TestManifestReplayDataDriven runs testdata/manifest_replay. Its one
// command writes a MANIFEST and replays it as Open does:
//
//	replay [levels=N] [torn] [damage=I]
//	  edits (see parseEdit), one MANIFEST record each, separated by lines
//	  "--"; torn cuts the last record short, as a crash while writing it
//	  leaves it; damage flips the first payload byte of record I (from 0)
//
// It prints the recovered log number, next file number, last sequence and
// version, or the error. After a successful replay the version set writes
// a fresh MANIFEST holding a snapshot of the state, as Open does, and the
// test requires that replaying it gives the same state.
func TestManifestReplayDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/manifest_replay", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "replay" {
			return fmt.Sprintf("unknown command %q\n", d.Cmd)
		}
		levels, damage := 7, -1
		d.MaybeScanArgs(t, "levels", &levels)
		d.MaybeScanArgs(t, "damage", &damage)
		var records [][]byte
		for _, text := range strings.Split(d.Input, "\n--\n") {
			records = append(records, parseEdit(t, text).encode(nil))
		}
		dir := t.TempDir()
		writeManifest(t, dir, records, d.HasArg("torn"), damage)
		state, err := replayManifest(t, dir, levels, true)
		if err != nil {
			return fmt.Sprintf("error: %v\n", err)
		}
		return state
	})
}

// writeManifest writes records as MANIFEST-000001 and points CURRENT at it.
func writeManifest(t *testing.T, dir string, records [][]byte, torn bool, damage int) {
	var log bytes.Buffer
	w := wal.NewWriter(&log)
	var starts []int
	for _, r := range records {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, log.Len())
		w.AddRecord(r)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	data := log.Bytes()
	if damage >= 0 {
		data[starts[damage]+wal.HeaderSize] ^= 0xff
	}
	if torn {
		data = data[:len(data)-2]
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName(1)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, currentName), []byte(manifestName(1)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// formatFamilies writes the families besides the default: the highest id
// created, then each live family's id, name, log number and version.
func formatFamilies(s *familySet) string {
	if s.maxID == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "max-family %d\n", s.maxID)
	for _, f := range s.live {
		fmt.Fprintf(&b, "family %d %s log-number %d\n", f.id, f.name, f.logNumber)
		for _, line := range strings.SplitAfter(formatVersion(f.current), "\n") {
			if line != "" {
				b.WriteString("  " + line)
			}
		}
	}
	return b.String()
}

// replayManifest recovers the version set of the DB in dir and formats
// its state. With snapshot set it then writes a snapshot MANIFEST and
// checks that it replays to the same state.
func replayManifest(t *testing.T, dir string, levels int, snapshot bool) (string, error) {
	db := &DB{fs: DefaultFS, dir: dir, numLevels: levels}
	db.mu.vs.db = db
	names, err := DefaultFS.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.mu.vs.recover(levels, names); err != nil {
		return "", err
	}
	vs := &db.mu.vs
	next := vs.nextFileNum.Load()
	state := fmt.Sprintf("log-number %d\nlast-seq %d\n%s%s", vs.logNumber, vs.lastSeq, formatVersion(vs.current), formatFamilies(&vs.families))
	if !snapshot {
		return state, nil
	}
	if err := vs.createManifest(); err != nil {
		t.Fatal(err)
	}
	vs.manifestFile.Close()
	again, err := replayManifest(t, dir, levels, false)
	if err != nil {
		t.Fatalf("the snapshot MANIFEST does not replay: %v", err)
	}
	if again != state {
		t.Errorf("the snapshot MANIFEST replays to\n%s\nnot\n%s", again, state)
	}
	return fmt.Sprintf("next-file %d\n%s", next, state), nil
}

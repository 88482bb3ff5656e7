package lsm

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// matrixWrite is one write of the damage matrix's history; value "" is a
// delete.
type matrixWrite struct{ key, value string }

// matrixHistory: keys 0-299 put, flushed; 0-149 overwritten, flushed; then,
// left in the WAL, 0-49 deleted and 250-299 overwritten.
func matrixHistory() (writes []matrixWrite, walFrom int) {
	for i := 0; i < 300; i++ {
		writes = append(writes, matrixWrite{fmt.Sprintf("key%05d", i), fmt.Sprintf("v1-%05d", i)})
	}
	for i := 0; i < 150; i++ {
		writes = append(writes, matrixWrite{fmt.Sprintf("key%05d", i), fmt.Sprintf("v2-%05d", i)})
	}
	walFrom = len(writes)
	for i := 0; i < 50; i++ {
		writes = append(writes, matrixWrite{fmt.Sprintf("key%05d", i), ""})
	}
	for i := 250; i < 300; i++ {
		writes = append(writes, matrixWrite{fmt.Sprintf("key%05d", i), fmt.Sprintf("v3-%05d", i)})
	}
	return writes, walFrom
}

func stateAfter(writes []matrixWrite, n int) map[string]string {
	m := map[string]string{}
	for _, w := range writes[:n] {
		if w.value == "" {
			delete(m, w.key)
		} else {
			m[w.key] = w.value
		}
	}
	return m
}

// readAllKeys returns every key's value in db, or an error from a read.
func readAllKeys(db *DB) (map[string]string, error) {
	m := map[string]string{}
	for i := 0; i < 300; i++ {
		k := fmt.Sprintf("key%05d", i)
		var v string
		found, err := db.Get([]byte(k), func(b []byte) { v = string(b) })
		if err != nil {
			return nil, err
		}
		if found {
			m[k] = v
		}
	}
	return m, nil
}

func sameState(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestOpenDamageMatrix damages each kind of file of a DB (byte flips,
// truncations, deletion) and classifies each open: refused (directory
// unchanged), every write recovered, a point-in-time prefix recovered
// (damage in the WAL's last records only), or a read error. Anything else,
// a state that is no prefix of the history (wrong or resurrected values), or
// a listed table deleted, fails the test.
func TestOpenDamageMatrix(t *testing.T) {
	writes, walFrom := matrixHistory()
	src := t.TempDir()
	db := mustOpen(t, src, testOptions())
	for i, w := range writes {
		if w.value == "" {
			del(t, db, w.key)
		} else {
			put(t, db, w.key, w.value)
		}
		if i == 299 || i == walFrom-1 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	liveTables := filesOf(t, src, fileTable)
	final := stateAfter(writes, len(writes))
	rng := rand.New(rand.NewSource(14))
	counts := map[string]map[string]int{}
	kinds := map[string][]string{
		"WAL":      filesOf(t, src, fileWAL),
		"MANIFEST": filesOf(t, src, fileManifest),
		"CURRENT":  {filepath.Join(src, currentName)},
		"table":    liveTables,
	}
	trials := 40
	if testing.Short() {
		trials = 10
	}
	for kind, paths := range kinds {
		counts[kind] = map[string]int{}
		for trial := 0; trial < 2*trials+1; trial++ {
			dir := t.TempDir()
			copyDir(t, src, dir)
			path := filepath.Join(dir, filepath.Base(paths[rng.Intn(len(paths))]))
			data, err := os.ReadFile(path)
			if err != nil || len(data) == 0 {
				t.Fatalf("%s: %v", path, err)
			}
			damage := "flip"
			switch {
			case trial == 2*trials:
				damage = "delete"
				os.Remove(path)
			case trial >= trials:
				damage = "truncate"
				os.WriteFile(path, data[:rng.Intn(len(data))], 0o644)
			default:
				data[rng.Intn(len(data))] ^= byte(1 + rng.Intn(255))
				os.WriteFile(path, data, 0o644)
			}
			outcome := classifyOpen(t, dir, writes, walFrom, final, liveTables)
			counts[kind][damage+": "+outcome]++
		}
	}
	var lines []string
	for kind, c := range counts {
		for k, n := range c {
			lines = append(lines, fmt.Sprintf("%-8s %-40s %d", kind, k, n))
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		t.Log(l)
	}
}

// classifyOpen opens dir and names the outcome, failing the test on wrong
// data or a deleted listed table.
func classifyOpen(t *testing.T, dir string, writes []matrixWrite, walFrom int, final map[string]string, liveTables []string) string {
	t.Helper()
	before := listing(t, dir)
	db, err := Open(dir, testOptions(), Config{})
	if err != nil {
		if after := listing(t, dir); len(after) != len(before) {
			t.Fatalf("refused open (%v) changed the directory: %v -> %v", err, before, after)
		}
		return "refused"
	}
	defer db.Close()
	for _, p := range liveTables {
		if _, serr := os.Stat(filepath.Join(dir, filepath.Base(p))); serr != nil && before[filepath.Base(p)] > 0 {
			t.Fatalf("open deleted the listed table %s", filepath.Base(p))
		}
	}
	got, err := readAllKeys(db)
	if err != nil {
		return "read error"
	}
	if sameState(got, final) {
		return "all writes"
	}
	for n := len(writes) - 1; n >= walFrom; n-- {
		if sameState(got, stateAfter(writes, n)) {
			return "point in time (WAL tail lost)"
		}
	}
	t.Fatalf("opened %s with a state that is no prefix of the history", dir)
	return ""
}

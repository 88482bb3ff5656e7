package lsm

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The data-driven tests read testdata files in the form of
// github.com/cockroachdb/datadriven (Pebble's): a command with its
// arguments, input lines, a line "----", then the expected output. After a
// deliberate change of behaviour, regenerate the outputs with
//
//	go test ./lsm -run DataDriven -rewrite
//
// and review the diff. They describe versions in text:
//
//	L0
//	  12: a-c size=10 seq=3-5
//	L2
//	  4: d-f size=2M compacting
//
// A line "Ln" starts level n; each file line is the file number, a colon,
// the smallest and largest user keys joined by '-', and optional
// attributes: size (bytes, with an optional K, M or G suffix), seq (the
// smallest and largest sequence numbers) and compacting. parseVersion sorts
// each level as apply does; formatVersion writes a version back in the same
// form, listing only the levels that hold files.

// parseVersion reads a version of numLevels levels from input.
func parseVersion(t testing.TB, input string, numLevels int) *version {
	t.Helper()
	v := &version{levels: make([][]*fileMeta, numLevels)}
	level := -1
	for _, line := range strings.Split(input, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if n, ok := parseLevelName(line); ok {
			if n >= numLevels {
				t.Fatalf("level %d beyond the %d levels", n, numLevels)
			}
			level = n
			continue
		}
		if level < 0 {
			t.Fatalf("file %q before any level line", line)
		}
		v.levels[level] = append(v.levels[level], parseFileMeta(t, line))
	}
	for level, files := range v.levels {
		sortLevel(level, files)
	}
	return v
}

// parseLevelName reads "Ln".
func parseLevelName(s string) (int, bool) {
	if !strings.HasPrefix(s, "L") {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	return n, err == nil && n >= 0
}

// parseFileMeta reads "num: smallest-largest [size=N] [seq=lo-hi] [compacting]".
func parseFileMeta(t testing.TB, line string) *fileMeta {
	t.Helper()
	numText, rest, ok := strings.Cut(line, ":")
	if !ok {
		t.Fatalf("file line %q has no colon", line)
	}
	num, err := strconv.ParseUint(strings.TrimSpace(numText), 10, 64)
	if err != nil {
		t.Fatalf("file line %q: %v", line, err)
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		t.Fatalf("file line %q has no key range", line)
	}
	lo, hi, ok := strings.Cut(fields[0], "-")
	if !ok {
		t.Fatalf("file line %q: key range %q is not smallest-largest", line, fields[0])
	}
	m := &fileMeta{num: num, smallest: []byte(lo), largest: []byte(hi)}
	for _, attr := range fields[1:] {
		name, val, _ := strings.Cut(attr, "=")
		switch name {
		case "size":
			m.size = parseSize(t, val)
		case "seq":
			a, b, ok := strings.Cut(val, "-")
			if !ok {
				t.Fatalf("file line %q: seq %q is not lo-hi", line, val)
			}
			m.smallestSeq, m.largestSeq = parseUint(t, a), parseUint(t, b)
		case "compacting":
			m.compacting = true
		default:
			t.Fatalf("file line %q: unknown attribute %q", line, attr)
		}
	}
	return m
}

func parseUint(t testing.TB, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// parseSize reads a byte count with an optional K, M or G (binary) suffix.
func parseSize(t testing.TB, s string) uint64 {
	t.Helper()
	shift := 0
	switch {
	case strings.HasSuffix(s, "K"):
		shift = 10
	case strings.HasSuffix(s, "M"):
		shift = 20
	case strings.HasSuffix(s, "G"):
		shift = 30
	}
	if shift > 0 {
		s = s[:len(s)-1]
	}
	return parseUint(t, s) << shift
}

// formatFileMeta writes m as parseFileMeta reads it.
func formatFileMeta(m *fileMeta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d: %s-%s size=%d", m.num, m.smallest, m.largest, m.size)
	if m.smallestSeq != 0 || m.largestSeq != 0 {
		fmt.Fprintf(&b, " seq=%d-%d", m.smallestSeq, m.largestSeq)
	}
	if m.compacting {
		b.WriteString(" compacting")
	}
	return b.String()
}

// formatVersion lists the non-empty levels of v, or "empty".
func formatVersion(v *version) string {
	var b strings.Builder
	for level, files := range v.levels {
		if len(files) == 0 {
			continue
		}
		fmt.Fprintf(&b, "L%d\n", level)
		for _, f := range files {
			fmt.Fprintf(&b, "  %s\n", formatFileMeta(f))
		}
	}
	if b.Len() == 0 {
		return "empty\n"
	}
	return b.String()
}

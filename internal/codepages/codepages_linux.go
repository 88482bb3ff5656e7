//go:build linux

package codepages

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// mapping is one entry of /proc/self/smaps, with the fields Release reads.
type mapping struct {
	start, end uintptr
	perms      [4]byte
	path       string
	rss        int64 // bytes
	anonymous  int64 // bytes
	anonHuge   int64 // bytes of anonymous transparent huge pages
	swap       int64 // bytes (a swapped-out page copied on write)
}

// ResidentAt returns the resident memory of the process's mapping that
// holds addr; found is false when no mapping does.
func ResidentAt(addr uintptr) (r Resident, found bool, err error) {
	maps, err := readSmaps("/proc/self/smaps")
	if err != nil {
		return Resident{}, false, err
	}
	for _, m := range maps {
		if m.start <= addr && addr < m.end {
			return Resident{Bytes: m.rss, HugePages: m.anonHuge}, true, nil
		}
	}
	return Resident{}, false, nil
}

// Release drops the resident pages of the unwritten mappings of the
// libraries whose base names start with one of prefixes (see the package
// doc).
func Release(prefixes ...string) (Released, error) {
	maps, err := readSmaps("/proc/self/smaps")
	if err != nil {
		return Released{}, err
	}
	var r Released
	for _, m := range maps {
		if !releasable(m, prefixes) {
			continue
		}
		// The range is a whole mapping of the process's own address space,
		// none of it Go memory, so it goes to the kernel as plain numbers.
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			return r, fmt.Errorf("codepages: madvise %s %x-%x: %w", m.path, m.start, m.end, errno)
		}
		r.Mappings++
		r.Bytes += m.rss
	}
	return r, nil
}

// releasable reports whether m is a mapping Release may drop for prefixes.
func releasable(m mapping, prefixes []string) bool {
	if m.perms[1] == 'w' || m.perms[3] != 'p' ||
		m.anonymous != 0 || m.swap != 0 || m.rss == 0 {
		return false
	}
	base := filepath.Base(m.path)
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(base, p) {
			return true
		}
	}
	return false
}

// readSmaps parses an smaps file: each mapping's header line
// ("start-end perms offset dev inode [path]") followed by "Key: value kB"
// lines, of which Rss, Anonymous, AnonHugePages and Swap are kept.
func readSmaps(name string) ([]mapping, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("codepages: %w", err)
	}
	return parseSmaps(data)
}

// parseSmaps reads smaps text. It allocates little (the mapping list, and
// a path string per run of mappings of one file), since db_bench calls it
// at every start, where a test counts a run's allocations.
func parseSmaps(data []byte) ([]mapping, error) {
	maps := make([]mapping, 0, 256)
	var fieldBuf [6][]byte
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		fields := splitFields(line, fieldBuf[:0])
		if len(fields) == 0 {
			continue
		}
		if key, ok := bytes.CutSuffix(fields[0], []byte(":")); ok {
			if len(maps) == 0 {
				return nil, fmt.Errorf("codepages: smaps field before any mapping: %q", line)
			}
			m := &maps[len(maps)-1]
			var err error
			switch string(key) {
			case "Rss":
				m.rss, err = kiB(fields)
			case "Anonymous":
				m.anonymous, err = kiB(fields)
			case "AnonHugePages":
				m.anonHuge, err = kiB(fields)
			case "Swap":
				m.swap, err = kiB(fields)
			}
			if err != nil {
				return nil, fmt.Errorf("codepages: smaps line %q: %w", line, err)
			}
			continue
		}
		var prev string
		if len(maps) > 0 {
			prev = maps[len(maps)-1].path
		}
		m, err := parseHeader(fields, prev)
		if err != nil {
			return nil, fmt.Errorf("codepages: smaps line %q: %w", line, err)
		}
		maps = append(maps, m)
	}
	return maps, nil
}

// splitFields appends to dst the space-separated fields of line, at most
// cap(dst): the last one holds the rest of the line, inner spaces kept
// (a path may have them), trailing ones dropped.
func splitFields(line []byte, dst [][]byte) [][]byte {
	line = bytes.TrimRight(line, " \t")
	for {
		line = bytes.TrimLeft(line, " \t")
		if len(line) == 0 {
			return dst
		}
		if len(dst) == cap(dst)-1 {
			return append(dst, line)
		}
		i := bytes.IndexAny(line, " \t")
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i:]
	}
}

// parseHeader reads a mapping's header fields; prev is the path of the
// mapping before, whose string is reused when the path is the same.
func parseHeader(fields [][]byte, prev string) (mapping, error) {
	if len(fields) < 5 {
		return mapping{}, fmt.Errorf("%d fields, want at least 5", len(fields))
	}
	lo, hi, ok := bytes.Cut(fields[0], []byte("-"))
	start, ok1 := parseHex(lo)
	end, ok2 := parseHex(hi)
	if !ok || !ok1 || !ok2 || end < start {
		return mapping{}, fmt.Errorf("bad address range %q", fields[0])
	}
	if len(fields[1]) != 4 {
		return mapping{}, fmt.Errorf("bad permissions %q", fields[1])
	}
	m := mapping{start: uintptr(start), end: uintptr(end)}
	copy(m.perms[:], fields[1])
	if len(fields) > 5 {
		if string(fields[5]) == prev {
			m.path = prev
		} else {
			m.path = string(fields[5])
		}
	}
	return m, nil
}

// parseHex reads a hexadecimal number of at most 16 digits.
func parseHex(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// kiB reads a "Key: N kB" line's size in bytes.
func kiB(fields [][]byte) (int64, error) {
	if len(fields) != 3 || string(fields[2]) != "kB" {
		return 0, fmt.Errorf("want \"Key: N kB\"")
	}
	if len(fields[1]) == 0 || len(fields[1]) > 15 {
		return 0, fmt.Errorf("bad size %q", fields[1])
	}
	var n int64
	for _, c := range fields[1] {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad size %q", fields[1])
		}
		n = n*10 + int64(c-'0')
	}
	return n << 10, nil
}

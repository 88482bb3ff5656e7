//go:build linux

package codepages

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// mapping is one entry of /proc/self/smaps, with the fields Release reads.
type mapping struct {
	start, end uintptr
	perms      string
	path       string
	rss        int64 // bytes
	anonymous  int64 // bytes
	swap       int64 // bytes (a swapped-out page copied on write)
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
	if len(m.perms) != 4 || m.perms[1] == 'w' || m.perms[3] != 'p' ||
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
// lines, of which Rss, Anonymous and Swap are kept.
func readSmaps(name string) ([]mapping, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("codepages: %w", err)
	}
	return parseSmaps(data)
}

func parseSmaps(data []byte) ([]mapping, error) {
	var maps []mapping
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		fields := bytes.Fields(line)
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
			case "Swap":
				m.swap, err = kiB(fields)
			}
			if err != nil {
				return nil, fmt.Errorf("codepages: smaps line %q: %w", line, err)
			}
			continue
		}
		m, err := parseHeader(fields)
		if err != nil {
			return nil, fmt.Errorf("codepages: smaps line %q: %w", line, err)
		}
		maps = append(maps, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("codepages: %w", err)
	}
	return maps, nil
}

// parseHeader reads a mapping's header fields.
func parseHeader(fields [][]byte) (mapping, error) {
	if len(fields) < 5 {
		return mapping{}, fmt.Errorf("%d fields, want at least 5", len(fields))
	}
	lo, hi, ok := bytes.Cut(fields[0], []byte("-"))
	if !ok {
		return mapping{}, fmt.Errorf("no address range")
	}
	start, err1 := strconv.ParseUint(string(lo), 16, 64)
	end, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || end < start {
		return mapping{}, fmt.Errorf("bad address range %q", fields[0])
	}
	m := mapping{start: uintptr(start), end: uintptr(end), perms: string(fields[1])}
	if len(fields) > 5 {
		m.path = string(bytes.Join(fields[5:], []byte(" ")))
	}
	return m, nil
}

// kiB reads a "Key: N kB" line's size in bytes.
func kiB(fields [][]byte) (int64, error) {
	if len(fields) != 3 || string(fields[2]) != "kB" {
		return 0, fmt.Errorf("want \"Key: N kB\"")
	}
	n, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil || n < 0 || n > 1<<52 {
		return 0, fmt.Errorf("bad size %q", fields[1])
	}
	return n << 10, nil
}

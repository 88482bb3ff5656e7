//go:build linux

package codepages

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

const sampleSmaps = `00400000-00a00000 r-xp 00000000 fd:01 42                                 /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3
Size:               6144 kB
Rss:                5120 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me
00a00000-00b00000 r--p 00600000 fd:01 42                                 /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3
Size:               1024 kB
Rss:                  64 kB
Anonymous:            64 kB
VmFlags: rd mr mw me ac
00b00000-00b10000 rw-p 00700000 fd:01 42                                 /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3
Size:                 64 kB
Rss:                  64 kB
Anonymous:            64 kB
VmFlags: rd wr mr mw me ac
00c00000-00c10000 r--s 00000000 fd:01 43                                 /dev/shm/a file with spaces
Size:                 64 kB
Rss:                  64 kB
Anonymous:             0 kB
VmFlags: rd mr me
00d00000-00d10000 rw-p 00000000 00:00 0 
Size:               4096 kB
Rss:                2056 kB
Anonymous:          2056 kB
AnonHugePages:      2048 kB
VmFlags: rd wr mr mw me ac
00e00000-00e10000 r--p 00010000 fd:01 42                                 /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.33
Size:                 64 kB
Rss:                  60 kB
Anonymous:             0 kB
Swap:                  4 kB
VmFlags: rd mr mw me ac
`

func p4(s string) (p [4]byte) {
	copy(p[:], s)
	return p
}

func TestParseSmapsAndWhatIsReleasable(t *testing.T) {
	maps, err := parseSmaps([]byte(sampleSmaps))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		m          mapping
		releasable bool
	}{
		{mapping{0x400000, 0xa00000, p4("r-xp"), "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3", 5120 << 10, 0, 0, 0}, true},
		{mapping{0xa00000, 0xb00000, p4("r--p"), "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3", 64 << 10, 64 << 10, 0, 0}, false}, // relocated
		{mapping{0xb00000, 0xb10000, p4("rw-p"), "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3", 64 << 10, 64 << 10, 0, 0}, false}, // writable
		{mapping{0xc00000, 0xc10000, p4("r--s"), "/dev/shm/a file with spaces", 64 << 10, 0, 0, 0}, false},                          // shared
		{mapping{0xd00000, 0xd10000, p4("rw-p"), "", 2056 << 10, 2056 << 10, 2048 << 10, 0}, false},
		{mapping{0xe00000, 0xe10000, p4("r--p"), "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.33", 60 << 10, 0, 0, 4 << 10}, false}, // a copy swapped out
	}
	if len(maps) != len(want) {
		t.Fatalf("%d mappings, want %d: %+v", len(maps), len(want), maps)
	}
	for i, w := range want {
		if maps[i] != w.m {
			t.Errorf("mapping %d: %+v, want %+v", i, maps[i], w.m)
		}
		prefixes := []string{"librocksdb.so", "a file", "libstdc++.so"}
		if got := releasable(maps[i], prefixes); got != w.releasable {
			t.Errorf("mapping %d (%s %s): releasable %v, want %v", i, maps[i].perms, maps[i].path, got, w.releasable)
		}
	}
	if releasable(maps[0], []string{"libstdc++.so", ""}) {
		t.Errorf("a mapping of another library (or an empty prefix) was releasable")
	}
}

func TestParseSmapsRefusesGarbage(t *testing.T) {
	for _, bad := range []string{
		"Rss: 4 kB\n",
		"00400000 r-xp 0 fd:01 42 /x\n",
		"00a00000-00400000 r-xp 0 fd:01 42 /x\n",
		"00400000-00a00000 r-xp 0 fd:01 42 /x\nRss: 4 MB\n",
		"00400000-00a00000 r-xp 0 fd:01 42 /x\nAnonymous: -4 kB\n",
		"00400000-00a00000 r-xp 0 fd:01 42 /x\nSwap: 9007199254740993 kB\n",
		"00400000-00a00000 r-x 0 fd:01 42 /x\n",
		"0040g000-00a00000 r-xp 0 fd:01 42 /x\n",
	} {
		if _, err := parseSmaps([]byte(bad)); err == nil {
			t.Errorf("parseSmaps(%q): no error", bad)
		}
	}
}

// residentOf returns the smaps Rss of the process's mappings of the file
// at path, summed.
func residentOf(t *testing.T, path string) int64 {
	t.Helper()
	maps, err := readSmaps("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var rss int64
	for _, m := range maps {
		if m.path == path {
			rss += m.rss
		}
	}
	return rss
}

// TestReleaseDropsUnwrittenPagesOnly maps one file twice, privately: a
// read-only mapping that was only read, and one written to (copied on
// write) and then made read-only, as the dynamic loader leaves RELRO.
// Release must drop the first's pages, which read back the same, and keep
// the second's, whose written bytes no file holds.
func TestReleaseDropsUnwrittenPagesOnly(t *testing.T) {
	const size = 1 << 20
	dir := t.TempDir()
	path := filepath.Join(dir, "libcodepagestest.so.1")
	content := bytes.Repeat([]byte("codepages"), size/9+1)[:size]
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	read, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(read)
	written, err := unix.Mmap(int(f.Fd()), 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(written)
	var sum int
	for i := 0; i < size; i += 4096 {
		sum += int(read[i])
	}
	if sum == 0 {
		t.Fatal("read nothing")
	}
	copy(written, "relocated")
	if err := unix.Mprotect(written, unix.PROT_READ); err != nil {
		t.Fatal(err)
	}
	before := residentOf(t, path)
	if before < size {
		t.Fatalf("%d bytes resident before Release, want at least %d", before, size)
	}

	got, err := Release("libcodepagestest.so")
	if err != nil {
		t.Fatal(err)
	}
	if got.Mappings != 1 || got.Bytes < size {
		t.Errorf("Release = %+v, want 1 mapping of at least %d bytes", got, size)
	}
	if after := residentOf(t, path); after != 4096 {
		t.Errorf("%d bytes resident after Release, want 4096 (the written page)", after)
	}
	if string(written[:9]) != "relocated" {
		t.Errorf("the written page reads %q after Release", written[:9])
	}
	if !bytes.Equal(read, content) {
		t.Errorf("the released mapping reads back different bytes")
	}
	if none, err := Release("libnothingmapped.so"); err != nil || none != (Released{}) {
		t.Errorf("Release of an unmapped library = %+v, %v", none, err)
	}
}

// FuzzParseSmaps feeds parseSmaps arbitrary text: it never panics, and
// what it accepts is address ranges in order and sizes that are whole KiB.
func FuzzParseSmaps(f *testing.F) {
	f.Add([]byte(sampleSmaps))
	f.Add([]byte("00400000-00a00000 r-xp 0 fd:01 42 /x\nRss: 4 kB\n"))
	f.Add([]byte("Rss: 4 kB\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		maps, err := parseSmaps(data)
		if err != nil {
			return
		}
		for _, m := range maps {
			if m.end < m.start || m.rss%1024 != 0 || m.anonymous%1024 != 0 || m.swap%1024 != 0 ||
				m.rss < 0 || m.anonymous < 0 || m.swap < 0 {
				t.Fatalf("accepted %+v from %q", m, data)
			}
		}
	})
}

// TestParseSmapsAllocatesLittle: the mapping list and one path string per
// run of mappings of one file (db_bench parses smaps at every start).
func TestParseSmapsAllocatesLittle(t *testing.T) {
	data := []byte(sampleSmaps)
	if n := testing.AllocsPerRun(10, func() { parseSmaps(data) }); n > 4 {
		t.Errorf("parseSmaps allocates %.0f times for 6 mappings of 4 files", n)
	}
}

// TestResidentAt finds a mapping of its own, touched, and none at address 0.
func TestResidentAt(t *testing.T) {
	m, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	for i := 0; i < len(m); i += 4096 {
		m[i] = 1
	}
	r, found, err := ResidentAt(uintptr(unsafe.Pointer(&m[len(m)/2])))
	if err != nil || !found || r.Bytes < 1<<20 {
		t.Fatalf("ResidentAt of a touched 1 MiB mapping: %+v, found %v, %v", r, found, err)
	}
	if _, found, err := ResidentAt(0); err != nil || found {
		t.Fatalf("ResidentAt(0): found %v, %v", found, err)
	}
}

package directio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// dirs are the directories the tests run in: the test's temporary
// directory (usually a disk) and tmpfs, where it exists.
func dirs(t *testing.T) []string {
	d := []string{t.TempDir()}
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		shm, err := os.MkdirTemp("/dev/shm", "directio")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(shm) })
			d = append(d, shm)
		}
	}
	return d
}

func TestAlignedBuffer(t *testing.T) {
	for _, n := range []int{1, 100, Alignment, 3*Alignment + 5} {
		b := AlignedBuffer(n)
		if len(b) != n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%Alignment != 0 {
			t.Fatalf("AlignedBuffer(%d): len %d at %p", n, len(b), unsafe.SliceData(b))
		}
	}
}

// TestWriteThenReadBack writes odd-sized pieces through a Writer, with a
// Flush in the middle, and reads ranges back through a ReaderAt: the file
// is exactly the bytes written, and both files are opened with O_DIRECT.
func TestWriteThenReadBack(t *testing.T) {
	for _, dir := range dirs(t) {
		name := filepath.Join(dir, "f")
		f, err := Create(name)
		if err == ErrUnsupported {
			t.Skip(err)
		}
		if err != nil {
			t.Logf("%s: %v (no direct I/O here)", dir, err)
			continue
		}
		if ok, err := IsDirect(f); err != nil || !ok {
			t.Fatalf("%s: the created file has no O_DIRECT (%v)", dir, err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var want []byte
		w := NewWriter(f, 3*Alignment)
		for i := 0; i < 200; i++ {
			p := make([]byte, rng.IntN(3000)+1)
			for j := range p {
				p[j] = byte(rng.Uint32())
			}
			if _, err := w.Write(p); err != nil {
				t.Fatal(err)
			}
			want = append(want, p...)
			if i == 100 {
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if st, _ := f.Stat(); st.Size() != int64(len(want)) {
					t.Fatalf("after Flush the file is %d bytes, want %d", st.Size(), len(want))
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: file of %d bytes differs from the %d written", dir, len(got), len(want))
		}
		rf, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := IsDirect(rf); err != nil || !ok {
			t.Fatalf("%s: the opened file has no O_DIRECT (%v)", dir, err)
		}
		r := NewReaderAt(rf)
		for i := 0; i < 300; i++ {
			off := rng.IntN(len(want))
			n := rng.IntN(10000) + 1
			p := make([]byte, n)
			m, err := r.ReadAt(p, int64(off))
			wantN := min(n, len(want)-off)
			if m != wantN || !bytes.Equal(p[:m], want[off:off+m]) {
				t.Fatalf("ReadAt(%d, %d) = %d bytes, want %d", n, off, m, wantN)
			}
			if (m < n) != (err == io.EOF) || (err != nil && err != io.EOF) {
				t.Fatalf("ReadAt(%d, %d): %d bytes, err %v", n, off, m, err)
			}
		}
		rf.Close()
	}
}

// TestPlainOpenIsNotDirect is the check's other side: IsDirect is false
// for a file opened without O_DIRECT.
func TestPlainOpenIsNotDirect(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := IsDirect(f); err != nil || ok {
		t.Fatalf("IsDirect of a plain file = %v, %v", ok, err)
	}
}

//go:build rocksdb

package mergeop

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rocksOracle is testdata/merge_oracle.cc, built against librocksdb, with
// its stdin and stdout.
type rocksOracle struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

func startRocksOracle(t *testing.T) *rocksOracle {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to build the librocksdb oracle")
	}
	bin := filepath.Join(t.TempDir(), "merge_oracle")
	build := exec.Command(cxx, "-std=c++17", "-O1", "-o", bin, "testdata/merge_oracle.cc", "-lrocksdb")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the oracle: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return &rocksOracle{in: in, out: bufio.NewScanner(stdout)}
}

func (o *rocksOracle) ask(t *testing.T, request string) string {
	t.Helper()
	if _, err := io.WriteString(o.in, request+"\n"); err != nil {
		t.Fatal(err)
	}
	if !o.out.Scan() {
		t.Fatalf("oracle gave no answer to %q: %v", request, o.out.Err())
	}
	return o.out.Text()
}

func hexField(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

func operandFields(operands [][]byte) string {
	fields := []string{strconv.Itoa(len(operands))}
	for _, operand := range operands {
		fields = append(fields, hexField(operand))
	}
	return strings.Join(fields, " ")
}

// randomOperand draws a value of the shape spec's operator reads: for
// uint64add mostly 8 bytes, for sortlist a sorted int list, otherwise short
// bytes that often share prefixes.
func randomOperand(rng *rand.Rand, spec string) []byte {
	switch spec {
	case "uint64add":
		if rng.IntN(4) > 0 {
			return binary.LittleEndian.AppendUint64(nil, rng.Uint64()>>uint(rng.IntN(64)))
		}
	case "sortlist":
		list := make([]int, 1+rng.IntN(4))
		for i := range list {
			list[i] = int(rng.Int32()) >> uint(rng.IntN(31))
		}
		sort.Ints(list)
		var b []byte
		for i, v := range list {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		return b
	}
	b := make([]byte, rng.IntN(6))
	for i := range b {
		b[i] = "ab\x00\xff"[rng.IntN(4)]
	}
	return b
}

// TestOperatorsMatchLibrocksdb runs random full and partial merges through
// every operator here and through librocksdb's operator of the same name,
// and wants the same bytes.
func TestOperatorsMatchLibrocksdb(t *testing.T) {
	oracle := startRocksOracle(t)
	rng := rand.New(rand.NewPCG(1, 2))
	specs := []string{"put", "put_v1", "uint64add", "max", "bytesxor", "stringappend", "stringappendtest", "id=stringappend;delimiter=::", "sortlist"}
	for _, spec := range specs {
		op := mustLookup(t, spec)
		if got := oracle.ask(t, "N "+spec); got != "OK "+op.Name() {
			t.Errorf("%s: librocksdb says %q, Name() is %q", spec, got, op.Name())
		}
		for i := 0; i < 300; i++ {
			operands := make([][]byte, 1+rng.IntN(4))
			for j := range operands {
				operands[j] = randomOperand(rng, spec)
			}
			existing, has := randomOperand(rng, spec), rng.IntN(2) == 0
			hasField := map[bool]string{false: "0", true: "1"}[has]
			full, err := op.FullMerge(nil, []byte("key"), existing, has, operands)
			if err != nil {
				t.Fatalf("%s FullMerge: %v", spec, err)
			}
			request := fmt.Sprintf("F %s %s %s %s", spec, hasField, hexField(existing), operandFields(operands))
			if want := oracle.ask(t, request); want != "OK "+hexField(full) {
				t.Fatalf("%s: %s\n got OK %s\nwant %s", spec, request, hexField(full), want)
			}
			if len(operands) < 2 {
				continue
			}
			request = fmt.Sprintf("P %s %s", spec, operandFields(operands))
			want := oracle.ask(t, request)
			partial, ok := op.PartialMerge(nil, []byte("key"), operands)
			got := "DECLINE"
			if ok {
				got = "OK " + hexField(partial)
			}
			if spec == "sortlist" {
				// RocksDB's SortList::PartialMergeMulti answers true with
				// nothing written; PartialMerge declines instead (sortlist.go).
				if want != "OK -" || ok {
					t.Fatalf("sortlist partial merge: librocksdb %q, here %q", want, got)
				}
				continue
			}
			if got != want {
				t.Fatalf("%s: %s\n got %s\nwant %s", spec, request, got, want)
			}
		}
	}
}

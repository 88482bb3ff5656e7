package mergeop

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func ops(values ...string) [][]byte {
	out := make([][]byte, len(values))
	for i, v := range values {
		out[i] = []byte(v)
	}
	return out
}

func mustLookup(t *testing.T, spec string) Operator {
	t.Helper()
	op, err := Lookup(spec)
	if err != nil || op == nil {
		t.Fatalf("Lookup(%q) = %v, %v", spec, op, err)
	}
	return op
}

func TestLookupNames(t *testing.T) {
	// Names and OPTIONS values as db_bench 7.8.3 writes them to its OPTIONS
	// file for each --merge_operator (observed with /usr/bin/db_bench).
	for _, c := range []struct{ spec, name, options string }{
		{"put", "PutOperator", "PutOperator"},
		{"put_v1", "PutOperator", "PutOperator"},
		{"PutOperator", "PutOperator", "PutOperator"},
		{"uint64add", "UInt64AddOperator", "UInt64AddOperator"},
		{"UInt64AddOperator", "UInt64AddOperator", "UInt64AddOperator"},
		{"id=uint64add", "UInt64AddOperator", "UInt64AddOperator"},
		{"max", "MaxOperator", "MaxOperator"},
		{"MaxOperator", "MaxOperator", "MaxOperator"},
		{"bytesxor", "BytesXOR", "BytesXOR"},
		{"BytesXOR", "BytesXOR", "BytesXOR"},
		{"stringappend", "StringAppendOperator", "{id=StringAppendOperator;delimiter=,;}"},
		{"StringAppendOperator", "StringAppendOperator", "{id=StringAppendOperator;delimiter=,;}"},
		{"id=stringappend;delimiter=:", "StringAppendOperator", `{id=StringAppendOperator;delimiter=\:;}`},
		{"{id=StringAppendOperator;delimiter=ab}", "StringAppendOperator", "{id=StringAppendOperator;delimiter=ab;}"},
		{"stringappendtest", "StringAppendTESTOperator", "{id=StringAppendTESTOperator;delimiter=,;}"},
		{"StringAppendTESTOperator", "StringAppendTESTOperator", "{id=StringAppendTESTOperator;delimiter=,;}"},
		{"sortlist", "MergeSortOperator", "MergeSortOperator"},
		{"MergeSortOperator", "MergeSortOperator", "MergeSortOperator"},
	} {
		op := mustLookup(t, c.spec)
		if op.Name() != c.name || OptionsValue(op) != c.options {
			t.Errorf("Lookup(%q): Name %q OPTIONS %q, want %q %q", c.spec, op.Name(), OptionsValue(op), c.name, c.options)
		}
	}
	if op, err := Lookup(""); op != nil || err != nil {
		t.Errorf(`Lookup("") = %v, %v; want no operator`, op, err)
	}
	if OptionsValue(nil) != "nullptr" {
		t.Errorf("OptionsValue(nil) = %q", OptionsValue(nil))
	}
}

func TestLookupRefusals(t *testing.T) {
	// db_bench 7.8.3's words for each (stderr, exit 1).
	for _, c := range []struct{ spec, line string }{
		{"foo", "invalid merge operator[foo]: Not implemented: Could not load MergeOperator: foo"},
		{"put_v2", "invalid merge operator[put_v2]: Not implemented: Could not load MergeOperator: put_v2"},
		{"BytesXOROperator", "invalid merge operator[BytesXOROperator]: Not implemented: Could not load MergeOperator: BytesXOROperator"},
		{"SortList", "invalid merge operator[SortList]: Not implemented: Could not load MergeOperator: SortList"},
		{" put", "invalid merge operator[ put]: Not implemented: Could not load MergeOperator:  put"},
		{"stringappend;delimiter=x", "invalid merge operator[stringappend;delimiter=x]: Not implemented: Could not load MergeOperator: stringappend;delimiter=x"},
		{"id=max;foo=1", "invalid merge operator[id=max;foo=1]: NotFound: Could not find option: : foo"},
	} {
		op, err := Lookup(c.spec)
		if err == nil {
			t.Errorf("Lookup(%q) = %v, want an error", c.spec, op)
			continue
		}
		if got := InvalidFlagMessage(c.spec, err); got != c.line {
			t.Errorf("Lookup(%q):\n got %s\nwant %s", c.spec, got, c.line)
		}
	}
}

// mergeCase is one merge and its expected result: full merges take
// existing (when has is set), partial merges only the operands; want ""
// with declined set means PartialMerge declines.
type mergeCase struct {
	spec     string
	partial  bool
	existing string
	has      bool
	operands [][]byte
	want     string
	declined bool
}

func TestMerges(t *testing.T) {
	for _, c := range []mergeCase{
		// put: the newest operand, whatever came before.
		{spec: "put", existing: "old", has: true, operands: ops("a", "b"), want: "b"},
		{spec: "put", operands: ops(""), want: ""},
		{spec: "put", partial: true, operands: ops("a", "b", "c"), want: "c"},

		// uint64add: fixed 8-byte little endian; a wrong length counts 0
		// (uint64add.cc DecodeInteger), sums wrap.
		{spec: "uint64add", operands: [][]byte{u64(1)}, want: string(u64(1))},
		{spec: "uint64add", existing: string(u64(40)), has: true, operands: [][]byte{u64(1), u64(1)}, want: string(u64(42))},
		{spec: "uint64add", existing: "bad", has: true, operands: [][]byte{u64(5)}, want: string(u64(5))},
		{spec: "uint64add", operands: ops("x"), want: string(u64(0))},
		{spec: "uint64add", operands: [][]byte{u64(1), []byte("123456789"), u64(2)}, want: string(u64(3))},
		{spec: "uint64add", operands: [][]byte{u64(^uint64(0)), u64(2)}, want: string(u64(1))},
		{spec: "uint64add", partial: true, operands: [][]byte{u64(7), ops("")[0], u64(8)}, want: string(u64(15))},

		// max: bytewise greatest, a prefix sorts first.
		{spec: "max", operands: ops("b", "ab", "a"), want: "b"},
		{spec: "max", existing: "zz", has: true, operands: ops("z", "y"), want: "zz"},
		{spec: "max", existing: "a", has: true, operands: ops("ab"), want: "ab"},
		{spec: "max", operands: ops("", ""), want: ""},
		{spec: "max", existing: "\xff", has: true, operands: ops("\x00\xff\xff"), want: "\xff"},
		{spec: "max", partial: true, operands: ops("m", "q", "c"), want: "q"},

		// bytesxor: XOR over the common length, the longer one's tail kept.
		{spec: "bytesxor", operands: ops("abc"), want: "abc"},
		{spec: "bytesxor", existing: "\x0f\x0f", has: true, operands: ops("\xff"), want: "\xf0\x0f"},
		{spec: "bytesxor", existing: "\x01", has: true, operands: ops("\x03\x07\x09"), want: "\x02\x07\x09"},
		{spec: "bytesxor", operands: ops("ab", "ab"), want: "\x00\x00"},
		{spec: "bytesxor", existing: "", has: true, operands: ops("q"), want: "q"},
		{spec: "bytesxor", partial: true, operands: ops("\x01\x02", "\x03", "\x00\x00\x04"), want: "\x02\x02\x04"},

		// stringappend: joined by ',', an empty existing value included
		// (StringAppendOperatorTest: "Merge(a), Merge(b)" gives "a,b").
		{spec: "stringappend", operands: ops("a", "b", "c"), want: "a,b,c"},
		{spec: "stringappend", existing: "x", has: true, operands: ops("y"), want: "x,y"},
		{spec: "stringappend", existing: "", has: true, operands: ops("a"), want: ",a"},
		{spec: "stringappend", operands: ops("", ""), want: ","},
		{spec: "stringappend", partial: true, operands: ops("a", "b"), want: "a,b"},
		{spec: "id=stringappend;delimiter=", operands: ops("a", "b"), want: "ab"},
		{spec: "{id=stringappend;delimiter=\\:\\:}", existing: "0", has: true, operands: ops("1"), want: "0::1"},

		// stringappendtest: the same joins; never a partial merge.
		{spec: "stringappendtest", operands: ops("a", "b", "c"), want: "a,b,c"},
		{spec: "stringappendtest", existing: "", has: true, operands: ops("a"), want: ",a"},
		{spec: "stringappendtest", partial: true, operands: ops("a", "b"), declined: true},

		// sortlist: the operands' merge sort; the existing value ignored.
		{spec: "sortlist", operands: ops("1,5,9", "2,3,10"), want: "1,2,3,5,9,10"},
		{spec: "sortlist", existing: "0,100", has: true, operands: ops("7"), want: "7"},
		{spec: "sortlist", operands: ops(" +4,-3", "-2147483648,2147483647"), want: "-2147483648,4,-3,2147483647"},
		{spec: "sortlist", operands: ops("12abc,3x"), want: "12,3"},
		{spec: "sortlist", operands: ops("5,6\x00,junk"), want: "5,6"},
		{spec: "sortlist", partial: true, operands: ops("1", "2"), declined: true},
	} {
		op := mustLookup(t, c.spec)
		prefix := []byte("dst")
		var got []byte
		if c.partial {
			out, ok := op.PartialMerge(prefix, []byte("key"), c.operands)
			if ok == c.declined {
				t.Errorf("%s PartialMerge%q: ok %v", c.spec, c.operands, ok)
				continue
			}
			got = out
		} else {
			out, err := op.FullMerge(prefix, []byte("key"), []byte(c.existing), c.has, c.operands)
			if err != nil {
				t.Errorf("%s FullMerge(%q, %v, %q): %v", c.spec, c.existing, c.has, c.operands, err)
				continue
			}
			got = out
		}
		if !bytes.HasPrefix(got, prefix) || string(got[len(prefix):]) != c.want {
			t.Errorf("%s partial=%v existing=%q has=%v operands=%q: got %q, want dst+%q", c.spec, c.partial, c.existing, c.has, c.operands, got, c.want)
		}
	}
}

func TestSortListRefusals(t *testing.T) {
	// Tokens std::stoi throws on: C++ db_bench aborts, FullMerge errs.
	op := mustLookup(t, "sortlist")
	for _, operand := range []string{"", "1,", ",1", "a", "1,,2", "2147483648", "-2147483649", "99999999999999999999999", " ", "+"} {
		if out, err := op.FullMerge(nil, nil, nil, false, ops("1", operand)); err == nil {
			t.Errorf("sortlist FullMerge(%q) = %q, want an error", operand, out)
		} else if !strings.Contains(err.Error(), "MergeSortOperator") {
			t.Errorf("sortlist FullMerge(%q): error %q does not name the operator", operand, err)
		}
	}
}

func TestFullMergeAppendsWithoutAllocating(t *testing.T) {
	operands := [][]byte{u64(1), u64(2), u64(3)}
	for _, spec := range []string{"put", "uint64add", "max", "bytesxor", "stringappend", "stringappendtest"} {
		op := mustLookup(t, spec)
		dst := make([]byte, 0, 64)
		existing := u64(9)
		allocs := testing.AllocsPerRun(100, func() {
			dst, _ = op.FullMerge(dst[:0], nil, existing, true, operands)
			dst, _ = op.PartialMerge(dst[:0], nil, operands)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per merge into a grown dst", spec, allocs)
		}
	}
}

package lsm

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestVersionEditDataDriven runs testdata/version_edit. Commands:
//
//	encode
//	  an edit (see parseEdit); prints its encoding field by field, each
//	  field as decoded back from the whole encoding
//	decode
//	  hex bytes (spaces and newlines ignored); prints the decoded edit or
//	  the error
//	define [levels=N]
//	  a version (see parseVersion) that apply starts from
//	apply [levels=N]
//	  an edit applied to the current version, which becomes the result;
//	  prints the result or the error (the version is then unchanged)
func TestVersionEditDataDriven(t *testing.T) {
	var current *version
	datadriven.RunTest(t, "testdata/version_edit", func(t *testing.T, d *datadriven.TestData) string {
		levels := 7
		d.MaybeScanArgs(t, "levels", &levels)
		switch d.Cmd {
		case "encode":
			return formatEncodedEdit(t, parseEdit(t, d.Input))
		case "decode":
			b, err := hex.DecodeString(strings.Join(strings.Fields(d.Input), ""))
			if err != nil {
				t.Fatal(err)
			}
			e, err := decodeEdit(b)
			if err != nil {
				return fmt.Sprintf("error: %v\n", err)
			}
			return formatEdit(e)
		case "define":
			current = parseVersion(t, d.Input, levels)
			return formatVersion(current)
		case "apply":
			nv, err := current.apply(parseEdit(t, d.Input), levels)
			if err != nil {
				return fmt.Sprintf("error: %v\n", err)
			}
			current = nv
			return formatVersion(current)
		default:
			return fmt.Sprintf("unknown command %q\n", d.Cmd)
		}
	})
}

// parseEdit reads an edit, one field a line:
//
//	log-number N
//	next-file N
//	last-seq N
//	delete Ln NUM
//	add Ln <file line as parseFileMeta reads it>
//	flush-begin TABLE wal=N seq=A-B [unlogged]
//	flush-end TABLE
//	family ID
//	add-family NAME
//	drop-family
//	max-family ID
func parseEdit(t *testing.T, input string) *versionEdit {
	e := &versionEdit{}
	for _, line := range strings.Split(input, "\n") {
		field, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch field {
		case "":
		case "log-number":
			e.setLogNumber(parseUint(t, rest))
		case "next-file":
			e.setNextFileNum(parseUint(t, rest))
		case "last-seq":
			e.setLastSeq(parseUint(t, rest))
		case "delete":
			lv, num, _ := strings.Cut(rest, " ")
			e.deleted = append(e.deleted, deletedFileEntry{level: parseEditLevel(t, lv), fileNum: parseUint(t, num)})
		case "add":
			lv, file, _ := strings.Cut(rest, " ")
			e.added = append(e.added, newFileEntry{level: parseEditLevel(t, lv), meta: parseFileMeta(t, file)})
		case "flush-begin":
			e.flushBegun = append(e.flushBegun, parseFlushBegin(t, rest))
		case "flush-end":
			e.flushEnded = append(e.flushEnded, parseUint(t, rest))
		case "family":
			e.family = uint32(parseUint(t, rest))
		case "add-family":
			e.addFamily, e.familyName = true, rest
		case "drop-family":
			e.dropFamily = true
		case "max-family":
			e.hasMaxFamily, e.maxFamily = true, uint32(parseUint(t, rest))
		default:
			t.Fatalf("unknown edit field %q", line)
		}
	}
	return e
}

// parseFlushBegin reads "TABLE wal=N seq=A-B [unlogged]".
func parseFlushBegin(t *testing.T, s string) pendingFlush {
	f := strings.Fields(s)
	if len(f) < 3 || len(f) > 4 || (len(f) == 4 && f[3] != "unlogged") {
		t.Fatalf("flush-begin %q: want TABLE wal=N seq=A-B [unlogged]", s)
	}
	p := pendingFlush{tableNum: parseUint(t, f[0]), unlogged: len(f) == 4}
	wal, ok := strings.CutPrefix(f[1], "wal=")
	seqs, ok2 := strings.CutPrefix(f[2], "seq=")
	lo, hi, ok3 := strings.Cut(seqs, "-")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("flush-begin %q: want TABLE wal=N seq=A-B [unlogged]", s)
	}
	p.walNum, p.smallestSeq, p.largestSeq = parseUint(t, wal), parseUint(t, lo), parseUint(t, hi)
	return p
}

func parseEditLevel(t *testing.T, s string) int {
	n, ok := parseLevelName(s)
	if !ok {
		t.Fatalf("%q is not a level (Ln)", s)
	}
	return n
}

// editFields splits e into one-field edits, in the order encode writes
// them.
func editFields(e *versionEdit) []*versionEdit {
	var out []*versionEdit
	if e.family != 0 {
		out = append(out, &versionEdit{familyEdit: familyEdit{family: e.family}})
	}
	if e.addFamily {
		out = append(out, &versionEdit{familyEdit: familyEdit{addFamily: true, familyName: e.familyName}})
	}
	if e.dropFamily {
		out = append(out, &versionEdit{familyEdit: familyEdit{dropFamily: true}})
	}
	if e.hasMaxFamily {
		out = append(out, &versionEdit{familyEdit: familyEdit{hasMaxFamily: true, maxFamily: e.maxFamily}})
	}
	if e.hasLogNumber {
		f := &versionEdit{}
		f.setLogNumber(e.logNumber)
		out = append(out, f)
	}
	if e.hasNextFileNum {
		f := &versionEdit{}
		f.setNextFileNum(e.nextFileNum)
		out = append(out, f)
	}
	if e.hasLastSeq {
		f := &versionEdit{}
		f.setLastSeq(e.lastSeq)
		out = append(out, f)
	}
	for _, d := range e.deleted {
		out = append(out, &versionEdit{deleted: []deletedFileEntry{d}})
	}
	for _, a := range e.added {
		out = append(out, &versionEdit{added: []newFileEntry{a}})
	}
	for _, p := range e.flushBegun {
		out = append(out, &versionEdit{flushBegun: []pendingFlush{p}})
	}
	for _, num := range e.flushEnded {
		out = append(out, &versionEdit{flushEnded: []uint64{num}})
	}
	return out
}

// formatEdit writes e one field a line, as parseEdit reads it.
func formatEdit(e *versionEdit) string {
	var b strings.Builder
	for _, f := range editFields(e) {
		b.WriteString(formatEditField(f))
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "empty edit\n"
	}
	return b.String()
}

// formatEditField writes the one field of f.
func formatEditField(f *versionEdit) string {
	switch {
	case f.family != 0:
		return fmt.Sprintf("family %d", f.family)
	case f.addFamily:
		return "add-family " + f.familyName
	case f.dropFamily:
		return "drop-family"
	case f.hasMaxFamily:
		return fmt.Sprintf("max-family %d", f.maxFamily)
	case f.hasLogNumber:
		return fmt.Sprintf("log-number %d", f.logNumber)
	case f.hasNextFileNum:
		return fmt.Sprintf("next-file %d", f.nextFileNum)
	case f.hasLastSeq:
		return fmt.Sprintf("last-seq %d", f.lastSeq)
	case len(f.deleted) == 1:
		return fmt.Sprintf("delete L%d %d", f.deleted[0].level, f.deleted[0].fileNum)
	case len(f.flushBegun) == 1:
		p := f.flushBegun[0]
		line := fmt.Sprintf("flush-begin %d wal=%d seq=%d-%d", p.tableNum, p.walNum, p.smallestSeq, p.largestSeq)
		if p.unlogged {
			line += " unlogged"
		}
		return line
	case len(f.flushEnded) == 1:
		return fmt.Sprintf("flush-end %d", f.flushEnded[0])
	default:
		return fmt.Sprintf("add L%d %s", f.added[0].level, formatFileMeta(f.added[0].meta))
	}
}

// formatEncodedEdit encodes e, decodes the encoding, and lists each decoded
// field's bytes beside the field. The fields' bytes must add up to the
// whole encoding.
func formatEncodedEdit(t *testing.T, e *versionEdit) string {
	whole := e.encode(nil)
	decoded, err := decodeEdit(whole)
	if err != nil {
		return fmt.Sprintf("error decoding %x: %v\n", whole, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d bytes\n", len(whole))
	var joined []byte
	for _, f := range editFields(decoded) {
		enc := f.encode(nil)
		joined = append(joined, enc...)
		fmt.Fprintf(&b, "  % x\n    %s\n", enc, formatEditField(f))
	}
	if !bytes.Equal(joined, whole) {
		t.Errorf("the decoded fields encode to %x, the edit to %x", joined, whole)
	}
	return b.String()
}

package options

// This file reads RocksDB OPTIONS files (the INI-like files RocksDB writes
// next to every database as OPTIONS-NNNNNN, and that db_bench accepts with
// --options_file).
//
// Format, as RocksDB 7.8.3's RocksDBOptionsParser reads it:
//
//   - The file is a sequence of lines separated by '\n' (a trailing '\r' is
//     whitespace and is trimmed with the rest).
//   - A '#' starts a comment that runs to the end of the line, unless it is
//     written "\#", which stands for a literal '#'.
//   - After removing the comment, leading and trailing whitespace is trimmed;
//     a line that is then empty is skipped.
//   - A line that starts with '[' and ends with ']' opens a section:
//     [Title] or [Title "argument"]. The argument is everything between the
//     first and the last double quote. Titles are "Version", "DBOptions",
//     "CFOptions" (argument: the column family name) and
//     "TableOptions/<Factory>" (argument: the column family name), e.g.
//     [TableOptions/BlockBasedTable "default"].
//   - Any other line is a statement name=value, split at the first '='; name
//     and value are trimmed; the name must not be empty; the value may be
//     empty. A value may be a nested struct such as
//     compression_opts={level=32767;enabled=false;} or a ':'-separated list
//     such as compression_per_level=kNoCompression:kSnappyCompression.
//   - A statement before the first section, a repeated name within a section
//     and a repeated [Version] or [DBOptions] section are errors.
//   - The first [CFOptions] section must be [CFOptions "default"], no column
//     family may appear twice, and a [TableOptions/...] section must follow
//     the [CFOptions] section of its column family.
//   - The table factory of a [TableOptions/<Factory>] title must be one
//     RocksDB has: BlockBasedTable, PlainTable or CuckooTable.
//   - The file must have a [DBOptions] and a [CFOptions "default"] section.
//   - [Version] holds rocksdb_version (at most three dot-separated numbers)
//     and options_file_version (at most two, the first at least 1).
//
// Errors are StatusErrors in RocksDB 7.8.3's words where RocksDB rejects the
// file, e.g. "Invalid argument: [RocksDBOptionsParser Error] : A valid
// statement must have a '='. (at line 15)". The checks RocksDB does not make
// (a statement before any section, a repeated name, an unknown [Version]
// entry, an argument to [DBOptions]) use the same frame with their own words.
//
// A minimal example:
//
//	# written by hand
//	[Version]
//	  rocksdb_version=7.8.3
//	  options_file_version=1.1
//	[DBOptions]
//	  max_background_jobs=4
//	[CFOptions "default"]
//	  compression_per_level=kNoCompression:kSnappyCompression:kZSTD
//	[TableOptions/BlockBasedTable "default"]
//	  block_size=8192
//	  filter_policy=bloomfilter:10:false

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// StatusError is an error in the words of a RocksDB Status: Code is the
// status name RocksDB prints ("Invalid argument", "Corruption") and Msg its
// message, so Error() reads like Status::ToString().
type StatusError struct {
	Code string
	Msg  string
}

func (e *StatusError) Error() string { return e.Code + ": " + e.Msg }

// invalidArgument returns an "Invalid argument" StatusError.
func invalidArgument(format string, args ...any) error {
	return &StatusError{Code: "Invalid argument", Msg: fmt.Sprintf(format, args...)}
}

// parserError is RocksDBOptionsParser's error about one line.
func parserError(line int, format string, args ...any) error {
	return invalidArgument("[RocksDBOptionsParser Error] : %s (at line %d)", fmt.Sprintf(format, args...), line)
}

// tableFactories are the table factory names RocksDB 7.8.3 has.
// RTable, the native engine's read-optimized table format, is this
// project's (tableformat.go).
var tableFactories = map[string]bool{"BlockBasedTable": true, "PlainTable": true, "CuckooTable": true, rtableFactory: true}

// Section kinds of an OPTIONS file.
const (
	SectionVersion = "Version"
	SectionDB      = "DBOptions"
	SectionCF      = "CFOptions"
	// SectionTablePrefix starts a table-factory section title, e.g.
	// "TableOptions/BlockBasedTable".
	SectionTablePrefix = "TableOptions/"
)

// OptionsFile is a parsed OPTIONS file: its sections in file order.
type OptionsFile struct {
	Name     string // the name errors are reported under (usually the path)
	Sections []*OptionsSection
}

// OptionsSection is one [Title "argument"] section with its statements in
// file order.
type OptionsSection struct {
	Title   string // "Version", "DBOptions", "CFOptions", "TableOptions/BlockBasedTable"
	Arg     string // the quoted argument ("default"), empty when absent
	Line    int    // 1-based line of the section header
	Entries []OptionsEntry
}

// OptionsEntry is one name=value statement.
type OptionsEntry struct {
	Name  string
	Value string
	Line  int // 1-based
}

// Get returns the value of name in the section and whether it is present.
func (s *OptionsSection) Get(name string) (string, bool) {
	for i := range s.Entries {
		if s.Entries[i].Name == name {
			return s.Entries[i].Value, true
		}
	}
	return "", false
}

// Section returns the first section with the given title and argument, or nil.
func (f *OptionsFile) Section(title, arg string) *OptionsSection {
	for _, s := range f.Sections {
		if s.Title == title && s.Arg == arg {
			return s
		}
	}
	return nil
}

// FirstSection returns the first section with the given title, or nil.
func (f *OptionsFile) FirstSection(title string) *OptionsSection {
	for _, s := range f.Sections {
		if s.Title == title {
			return s
		}
	}
	return nil
}

// maxOptionsLine bounds one line of an OPTIONS file. RocksDB's own lines are
// under 1 KiB; 1 MiB leaves room for long hand-written struct values while
// keeping a corrupt file from growing the scanner without limit.
const maxOptionsLine = 1 << 20

// ParseOptionsFile reads an OPTIONS file and checks its structure (see the
// file comment); name is the file's name, kept in OptionsFile.Name.
func ParseOptionsFile(r io.Reader, name string) (*OptionsFile, error) {
	f := &OptionsFile{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOptionsLine)
	var cur *OptionsSection
	cfs := map[string]bool{}    // column families seen
	tables := map[string]bool{} // table sections seen, "title\x00arg"
	var names map[string]bool
	hasDB, hasVersion := false, false
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := trimAndRemoveComment(sc.Text())
		if line == "" {
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			title, arg, err := parseSectionHeader(line, lineNo)
			if err != nil {
				return nil, err
			}
			switch {
			case title == SectionVersion:
				if hasVersion {
					return nil, parserError(lineNo, "More than one Version section found in the option config file.")
				}
				hasVersion = true
			case title == SectionDB:
				if hasDB {
					return nil, parserError(lineNo, "More than one DBOption section found in the option config file")
				}
				hasDB = true
			case title == SectionCF:
				isDefault := arg == "default"
				switch {
				case len(cfs) == 0 && !isDefault:
					return nil, parserError(lineNo, "Default column family must be the first CFOptions section in the option config file")
				case len(cfs) != 0 && isDefault:
					return nil, parserError(lineNo, "Default column family must be the first CFOptions section in the optio/n config file")
				case cfs[arg]:
					return nil, parserError(lineNo, "Two identical column families found in option config file")
				}
				cfs[arg] = true
			default: // a table factory section
				if !cfs[arg] {
					return nil, parserError(lineNo, "Does not find a matched column family name in TableOptions section.  Column Family Name:%s", arg)
				}
				if tables[title+"\x00"+arg] {
					return nil, parserError(lineNo, "section %s appears twice", line)
				}
				tables[title+"\x00"+arg] = true
			}
			cur = &OptionsSection{Title: title, Arg: arg, Line: lineNo}
			f.Sections = append(f.Sections, cur)
			names = map[string]bool{}
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, parserError(lineNo, "A valid statement must have a '='.")
		}
		key := strings.TrimSpace(line[:eq])
		value := unescapeOptionValue(strings.TrimSpace(line[eq+1:]))
		if key == "" {
			return nil, parserError(lineNo, "A valid statement must have a variable name.")
		}
		if cur == nil {
			return nil, parserError(lineNo, "statement %s appears before any section", key)
		}
		if names[key] {
			return nil, parserError(lineNo, "option %s appears twice in section [%s]", key, cur.Title)
		}
		names[key] = true
		cur.Entries = append(cur.Entries, OptionsEntry{Name: key, Value: value, Line: lineNo})
	}
	if err := sc.Err(); err != nil {
		return nil, invalidArgument("%s: line %d: %v", name, lineNo+1, err)
	}
	if err := f.checkVersion(); err != nil {
		return nil, err
	}
	if !hasDB {
		return nil, &StatusError{Code: "Corruption", Msg: "A RocksDB Option file must have a single DBOptions section"}
	}
	if !cfs["default"] {
		return nil, &StatusError{Code: "Corruption", Msg: "A RocksDB Option file must have a single CFOptions:default section"}
	}
	return f, nil
}

// trimAndRemoveComment drops everything from the first '#' not preceded by a
// backslash, then trims whitespace.
func trimAndRemoveComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] != '\\') {
			line = line[:i]
			break
		}
	}
	return strings.TrimSpace(line)
}

// unescapeOptionValue turns the escaped comment character "\#" back into '#'.
// Other backslashes are kept: RocksDB's value parsers see them unchanged.
func unescapeOptionValue(v string) string {
	if !strings.Contains(v, `\#`) {
		return v
	}
	return strings.ReplaceAll(v, `\#`, "#")
}

// parseSectionHeader splits "[Title]" or "[Title \"arg\"]".
func parseSectionHeader(line string, lineNo int) (title, arg string, err error) {
	body := strings.TrimSpace(line[1 : len(line)-1])
	if q := strings.IndexByte(body, '"'); q >= 0 {
		last := strings.LastIndexByte(body, '"')
		if last == q {
			return "", "", parserError(lineNo, "unterminated quote in section header %s", line)
		}
		if rest := strings.TrimSpace(body[last+1:]); rest != "" {
			return "", "", parserError(lineNo, "text after the quoted argument in section header %s", line)
		}
		arg = body[q+1 : last]
		body = strings.TrimSpace(body[:q])
	}
	title = body
	switch {
	case title == SectionVersion || title == SectionDB:
		if arg != "" {
			return "", "", parserError(lineNo, "section [%s] takes no argument", title)
		}
	case title == SectionCF:
		if arg == "" {
			return "", "", parserError(lineNo, "section [%s] needs a quoted column family name", title)
		}
	case strings.HasPrefix(title, SectionTablePrefix) && len(title) > len(SectionTablePrefix):
		if !tableFactories[title[len(SectionTablePrefix):]] {
			return "", "", parserError(lineNo, "unknown table factory %s", title[len(SectionTablePrefix):])
		}
		if arg == "" {
			return "", "", parserError(lineNo, "section [%s] needs a quoted column family name", title)
		}
	default:
		return "", "", invalidArgument("Unknown section %s", line)
	}
	return title, arg, nil
}

// checkVersion validates the [Version] section when present: its two
// entries are dot-separated numbers (rocksdb_version at most three,
// options_file_version at most two, its first at least 1), and no other
// entry is allowed.
func (f *OptionsFile) checkVersion() error {
	v := f.FirstSection(SectionVersion)
	if v == nil {
		return nil
	}
	for _, e := range v.Entries {
		var parts int
		switch e.Name {
		case "rocksdb_version":
			parts = 3
		case "options_file_version":
			parts = 2
		default:
			return parserError(e.Line, "unknown [Version] entry %s", e.Name)
		}
		first, err := checkVersionNumber(e.Name, e.Value, parts)
		if err != nil {
			return err
		}
		if parts == 2 && first < 1 {
			return invalidArgument("A valid options_file_version must be at least 1.")
		}
	}
	return nil
}

// checkVersionNumber checks a version string of at most maxParts
// dot-separated numbers, with RocksDB's words; it returns the first number.
func checkVersionNumber(name, s string, maxParts int) (first int, err error) {
	dots, digits, firstDone := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if dots >= maxParts-1 {
				return 0, invalidArgument("A valid %s can only contains at most %d dots.", name, maxParts-1)
			}
			if digits == 0 {
				return 0, invalidArgument("A valid %s must have at least one digit before each dot.", name)
			}
			dots, digits, firstDone = dots+1, 0, true
		case c >= '0' && c <= '9':
			if !firstDone && first < 1<<20 {
				first = first*10 + int(c-'0')
			}
			digits++
		default:
			return 0, invalidArgument("A valid %s can only contains dots and numbers.", name)
		}
	}
	if dots > 0 && digits == 0 {
		return 0, invalidArgument("A valid %s must have at least one digit after each dot.", name)
	}
	return first, nil
}

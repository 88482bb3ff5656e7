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
//     and a repeated [Version]/[DBOptions] section are errors.
//   - [Version] holds rocksdb_version=MAJOR.MINOR.PATCH and
//     options_file_version=MAJOR.MINOR; both must be dotted integers.
//   - Unlike RocksDB's loader, which insists on one [DBOptions] and a
//     [CFOptions "default"] section, every section is optional here, so a
//     short hand-written file can drive the engines that read Options.
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

// ParseOptionsFile reads an OPTIONS file. name is used in error messages,
// which have the form "NAME:LINE: problem".
func ParseOptionsFile(r io.Reader, name string) (*OptionsFile, error) {
	f := &OptionsFile{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOptionsLine)
	var cur *OptionsSection
	seen := map[string]bool{} // "title\x00arg" of sections seen
	var names map[string]bool // names in the current section
	lineNo := 0
	errAt := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		lineNo++
		line := trimAndRemoveComment(sc.Text())
		if line == "" {
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			title, arg, err := parseSectionHeader(line)
			if err != nil {
				return nil, errAt("%v", err)
			}
			key := title + "\x00" + arg
			if seen[key] {
				return nil, errAt("duplicate section %s", line)
			}
			if (title == SectionVersion || title == SectionDB) && seen[title+"\x00"] {
				return nil, errAt("duplicate section [%s]", title)
			}
			seen[key] = true
			cur = &OptionsSection{Title: title, Arg: arg, Line: lineNo}
			f.Sections = append(f.Sections, cur)
			names = map[string]bool{}
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, errAt("a statement must have the form name=value: %q", line)
		}
		key := strings.TrimSpace(line[:eq])
		value := unescapeOptionValue(strings.TrimSpace(line[eq+1:]))
		if key == "" {
			return nil, errAt("a statement needs an option name: %q", line)
		}
		if cur == nil {
			return nil, errAt("statement %q appears before any section", key)
		}
		if names[key] {
			return nil, errAt("duplicate option %q in section [%s]", key, cur.Title)
		}
		names[key] = true
		cur.Entries = append(cur.Entries, OptionsEntry{Name: key, Value: value, Line: lineNo})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	if err := f.checkVersion(); err != nil {
		return nil, err
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
func parseSectionHeader(line string) (title, arg string, err error) {
	body := strings.TrimSpace(line[1 : len(line)-1])
	if q := strings.IndexByte(body, '"'); q >= 0 {
		last := strings.LastIndexByte(body, '"')
		if last == q {
			return "", "", fmt.Errorf("unterminated quote in section header %s", line)
		}
		if rest := strings.TrimSpace(body[last+1:]); rest != "" {
			return "", "", fmt.Errorf("text after the quoted argument in section header %s", line)
		}
		arg = body[q+1 : last]
		body = strings.TrimSpace(body[:q])
	}
	title = body
	switch {
	case title == SectionVersion || title == SectionDB:
		if arg != "" {
			return "", "", fmt.Errorf("section [%s] takes no argument", title)
		}
	case title == SectionCF:
		if arg == "" {
			return "", "", fmt.Errorf("section [%s] needs a quoted column family name", title)
		}
	case strings.HasPrefix(title, SectionTablePrefix) && len(title) > len(SectionTablePrefix):
		if arg == "" {
			return "", "", fmt.Errorf("section [%s] needs a quoted column family name", title)
		}
	default:
		return "", "", fmt.Errorf("unknown section %s", line)
	}
	if strings.ContainsAny(title, " \t") {
		return "", "", fmt.Errorf("malformed section header %s", line)
	}
	return title, arg, nil
}

// checkVersion validates the [Version] section when present.
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
			return fmt.Errorf("%s:%d: unknown [Version] entry %q", f.Name, e.Line, e.Name)
		}
		if !isDottedVersion(e.Value, parts) {
			return fmt.Errorf("%s:%d: %s must be %d dot-separated integers, got %q",
				f.Name, e.Line, e.Name, parts, e.Value)
		}
	}
	return nil
}

func isDottedVersion(s string, parts int) bool {
	fields := strings.Split(s, ".")
	if len(fields) != parts {
		return false
	}
	for _, p := range fields {
		if p == "" || len(p) > 9 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
		}
	}
	return true
}

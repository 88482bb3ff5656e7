package gflags

import (
	"fmt"
	"sort"
	"strings"
)

// lineLength is gflags' help width: lines stay under 80 columns where they
// can be broken.
const lineLength = 80

// handleHelpFlags acts on the reporting built-ins in gflags' order and
// reports the exit code when one of them fired.
func (fs *FlagSet) handleHelpFlags() (code int, done bool) {
	b := &fs.builtin
	progStrings := fs.prognameStrings()
	switch {
	case b.helpshort:
		fs.showUsage(progStrings)
	case b.help || b.helpfull:
		fs.showUsage(nil)
	case b.helpon != "":
		fs.showUsage([]string{"/" + b.helpon + "."})
	case b.helpmatch != "":
		fs.showUsage([]string{b.helpmatch})
	case b.helppackage:
		fs.showPackage(progStrings)
	case b.helpxml:
		fs.showXML()
	case b.version:
		if fs.version != "" {
			fmt.Fprintf(fs.stdout, "%s version %s\n%s", fs.prog, fs.version, fs.versionDetail)
		} else {
			fmt.Fprintf(fs.stdout, "%s\n", fs.prog)
		}
		return 0, true
	default:
		return 0, false
	}
	return 1, true
}

// prognameStrings are the file-name pieces that mark the program's main
// file: "/prog.", "/prog-main." and "/prog_main.".
func (fs *FlagSet) prognameStrings() []string {
	r := "/" + fs.prog
	return []string{r + ".", r + "-main.", r + "_main."}
}

// byFile returns the flags sorted by source file, then by name, as gflags'
// GetAllFlags does.
func (fs *FlagSet) byFile() []*Flag {
	out := fs.sorted()
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

func dirname(file string) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		return file[:i]
	}
	return ""
}

// fileMatches: the file name contains one of the pieces, or starts with a
// piece's text after its leading '/'.
func fileMatches(file string, pieces []string) bool {
	for _, p := range pieces {
		if strings.Contains(file, p) {
			return true
		}
		if strings.HasPrefix(p, "/") && strings.HasPrefix(file, p[1:]) {
			return true
		}
	}
	return false
}

// showUsage prints the usage line and the flags of files matching pieces
// (all files when pieces is empty), grouped by file.
func (fs *FlagSet) showUsage(pieces []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", fs.prog, fs.usage)
	lastFile, firstDir, found := "", true, false
	for _, f := range fs.byFile() {
		if len(pieces) > 0 && !fileMatches(f.File, pieces) {
			continue
		}
		found = true
		if f.File != lastFile {
			if dirname(f.File) != dirname(lastFile) {
				if !firstDir {
					b.WriteString("\n\n")
				}
				firstDir = false
			}
			fmt.Fprintf(&b, "\n  Flags from %s:\n", f.File)
			lastFile = f.File
		}
		b.WriteString(describe(f))
	}
	if !found && len(pieces) > 0 {
		b.WriteString("\n  No modules matched: use -help\n")
	}
	fmt.Fprint(fs.stdout, b.String())
}

// showPackage prints the flags of the directory holding the main file.
// gflags' warnings here go to stderr without a newline.
func (fs *FlagSet) showPackage(progStrings []string) {
	last := ""
	for _, f := range fs.byFile() {
		if !fileMatches(f.File, progStrings) {
			continue
		}
		pkg := dirname(f.File) + "/"
		if pkg == last {
			continue
		}
		fs.showUsage([]string{pkg})
		if last != "" {
			fmt.Fprint(fs.stderr, "Multiple packages contain a file="+fs.prog)
		}
		last = pkg
	}
	if last == "" {
		fmt.Fprint(fs.stderr, "Unable to find a package for file="+fs.prog)
	}
}

// describe formats one flag as gflags' DescribeOneFlag: "    -name (help)"
// wrapped below 80 columns with 6-space continuation lines, then the type,
// the default and, for a flag that was set, the current value.
func describe(f *Flag) string {
	s := "    -" + f.Name + " (" + f.Help + ")"
	var b strings.Builder
	col := 0
	for {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 && col+len(s) < lineLength {
			b.WriteString(s)
			col += len(s)
			break
		}
		if nl >= 0 && nl < lineLength-col {
			b.WriteString(s[:nl])
			s = s[nl+1:]
		} else {
			ws := lineLength - col - 1
			for ws > 0 && !isCSpace(s[ws]) {
				ws--
			}
			if ws <= 0 {
				b.WriteString(s)
				col = lineLength
				break
			}
			b.WriteString(s[:ws])
			col += ws
			for ws < len(s) && isCSpace(s[ws]) {
				ws++
			}
			s = s[ws:]
		}
		if s == "" {
			break
		}
		b.WriteString("\n      ")
		col = 6
	}
	addWord := func(w string) {
		if col+1+len(w) >= lineLength {
			b.WriteString("\n      ")
			col = 6
		} else {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	quote := func(v string) string {
		if f.Type == TypeString {
			return `"` + v + `"`
		}
		return v
	}
	addWord("type: " + f.Type.String())
	addWord("default: " + quote(f.Default))
	if f.modified {
		addWord("currently: " + quote(f.Value()))
	}
	b.WriteByte('\n')
	return b.String()
}

// xmlText escapes '&' and '<' only, as gflags does.
func xmlText(s string) string {
	s = strings.ReplaceAll(s, "&", "&amp;")
	return strings.ReplaceAll(s, "<", "&lt;")
}

// showXML prints --helpxml output.
func (fs *FlagSet) showXML() {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<AllFlags>\n")
	fmt.Fprintf(&b, "<program>%s</program>\n", xmlText(fs.prog))
	fmt.Fprintf(&b, "<usage>%s</usage>\n", xmlText(fs.usage))
	for _, f := range fs.byFile() {
		b.WriteString("<flag>")
		for _, kv := range [][2]string{{"file", f.File}, {"name", f.Name}, {"meaning", f.Help},
			{"default", f.Default}, {"current", f.Value()}, {"type", f.Type.String()}} {
			fmt.Fprintf(&b, "<%s>%s</%s>", kv[0], xmlText(kv[1]), kv[0])
		}
		b.WriteString("</flag>\n")
	}
	b.WriteString("</AllFlags>\n")
	fmt.Fprint(fs.stdout, b.String())
}

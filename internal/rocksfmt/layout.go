package rocksfmt

import (
	"fmt"
	"regexp"
	"strings"
)

var levelName = regexp.MustCompile(`^L[0-9]+$`)

// lineKind names what a line of rocksdb.stats is, regardless of its figures:
// "L" for any level row, "priority" for any row of the table by priority,
// the whole line for titles, the leading words otherwise.
func lineKind(line string) string {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return ""
	case strings.HasPrefix(line, "**"), strings.HasPrefix(line, "---"):
		return line
	case levelName.MatchString(f[0]):
		return "L"
	}
	for _, p := range priorityNames {
		if f[0] == p {
			return "priority"
		}
	}
	if len(f) > 1 && (f[0] == "Cumulative" || f[0] == "Interval") {
		return f[0] + " " + f[1]
	}
	return f[0]
}

// LayoutDiff compares the layout of got, a "rocksdb.stats" text, with want,
// one RocksDB printed: the same kinds of lines in the same order (any number
// of level and priority rows where want has some), each with as many
// whitespace-separated fields (awk's $1..$NF) as want's line of its kind.
// Block-cache lines, which RocksDB prints only once it has collected cache
// statistics, may be present or not. It returns one message per difference.
func LayoutDiff(got, want string) []string {
	type line struct {
		kind   string
		fields int
		text   string
	}
	parse := func(s string) []line {
		var out []line
		for _, l := range strings.Split(strings.Trim(s, "\n"), "\n") {
			if strings.HasPrefix(l, "Block cache") {
				continue
			}
			k := lineKind(l)
			if n := len(out); n > 0 && (k == "L" || k == "priority") && out[n-1].kind == k {
				if len(strings.Fields(l)) != out[n-1].fields {
					out[n-1].fields = -1 // rows of one table disagree
				}
				continue
			}
			out = append(out, line{k, len(strings.Fields(l)), l})
		}
		return out
	}
	g, w := parse(got), parse(want)
	var diffs []string
	gi := 0
	for _, wl := range w {
		// A table may have no rows of a kind (no priority ran yet).
		if gi < len(g) && g[gi].kind != wl.kind && (wl.kind == "L" || wl.kind == "priority") {
			continue
		}
		if gi >= len(g) {
			diffs = append(diffs, fmt.Sprintf("missing line %q", wl.text))
			continue
		}
		gl := g[gi]
		gi++
		switch {
		case gl.kind != wl.kind:
			diffs = append(diffs, fmt.Sprintf("line %q where RocksDB has %q", gl.text, wl.text))
		case gl.fields != wl.fields:
			diffs = append(diffs, fmt.Sprintf("line %q has %d fields, RocksDB's %q has %d", gl.text, gl.fields, wl.text, wl.fields))
		}
	}
	for _, gl := range g[gi:] {
		diffs = append(diffs, fmt.Sprintf("extra line %q", gl.text))
	}
	return diffs
}

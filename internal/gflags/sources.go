package gflags

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"
)

// This file holds the flag sources besides argv: --flagfile files and the
// environment (--fromenv, --tryfromenv), and gflags' comma-list parsing.

// fatal writes msg to stderr and returns the exit that gflags takes at once.
func (p *parser) fatal(msg string) error {
	fmt.Fprint(p.fs.stderr, msg)
	return &ExitError{Code: 1}
}

// parseFlagList splits a comma list as gflags does: a trailing comma is
// fine, an empty entry or one starting with '-' ends the program. The second
// message reproduces gflags' "%*s", which prints the whole rest of the list.
func (p *parser) parseFlagList(list string) ([]string, error) {
	var out []string
	for list != "" {
		item, next := list, ""
		if comma := strings.IndexByte(list, ','); comma >= 0 {
			item, next = list[:comma], list[comma+1:]
		}
		if item == "" {
			return nil, p.fatal("ERROR: empty flaglist entry\n")
		}
		if item[0] == '-' {
			return nil, p.fatal(fmt.Sprintf("ERROR: flag \"%*s\" begins with '-'\n", len(item), list))
		}
		out = append(out, item)
		list = next
	}
	return out, nil
}

func (p *parser) enter(what string) error {
	p.depth++
	if p.depth > maxNesting {
		return p.fatal(fmt.Sprintf("ERROR: %s nested more than %d levels deep\n", what, maxNesting))
	}
	return nil
}

func (p *parser) flagfiles(list string) error {
	if list == "" {
		return nil
	}
	if err := p.enter("--flagfile"); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	names, err := p.parseFlagList(list)
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := p.fs.ReadFile(name)
		if err != nil {
			return p.fatal(name + ": " + cError(err) + "\n") // perror(filename)
		}
		if err := p.optionsFromString(string(data)); err != nil {
			return err
		}
	}
	return nil
}

// cError spells an OS error as C's strerror does ("No such file or
// directory"), for perror-style messages.
func cError(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			return strings.ToUpper(s[:1]) + s[1:]
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// optionsFromString applies the lines of one flag file (see the package
// comment). Like gflags it ends a line at the first '\r' left in the text if
// there is one, else at the next '\n', and reads the text as a C string.
func (p *parser) optionsFromString(text string) error {
	if nul := strings.IndexByte(text, 0); nul >= 0 {
		text = text[:nul]
	}
	relevant, inNames := true, false
	for {
		i := 0
		for i < len(text) && isCSpace(text[i]) {
			i++
		}
		text = text[i:]
		end := strings.IndexByte(text, '\r')
		if end < 0 {
			end = strings.IndexByte(text, '\n')
		}
		line := text
		if end >= 0 {
			line = text[:end]
		}
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '-':
			inNames = false
			if !relevant {
				break
			}
			body := strings.TrimPrefix(line[1:], "-")
			f, _, value, hasValue, _ := p.fs.split(body)
			if f == nil || !hasValue { // gflags ignores these silently
				break
			}
			if err := p.set(f, value); err != nil {
				return err
			}
		default:
			if !inNames {
				inNames, relevant = true, false
			}
			for _, glob := range strings.Split(line, " ") {
				if relevant {
					break
				}
				relevant = p.fs.programMatches(glob)
			}
		}
		if end < 0 {
			return nil
		}
		text = text[end+1:]
	}
}

// programMatches compares a flag-file glob with the program's full and base
// name (fnmatch with FNM_PATHNAME: '*' does not cross '/').
func (fs *FlagSet) programMatches(glob string) bool {
	if glob == fs.argv0 || glob == fs.prog {
		return true
	}
	for _, name := range []string{fs.argv0, fs.prog} {
		if ok, err := path.Match(glob, name); err == nil && ok {
			return true
		}
	}
	return false
}

func (p *parser) fromEnv(list string, mustExist bool) error {
	if list == "" {
		return nil
	}
	if err := p.enter("--fromenv"); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	names, err := p.parseFlagList(list)
	if err != nil {
		return err
	}
	for _, name := range names {
		f := p.fs.findFlag(name)
		if f == nil {
			p.errs[name] = "ERROR: unknown command line flag '" + name + "' (via --fromenv or --tryfromenv)\n"
			p.undefined[name] = true
			continue
		}
		env := "FLAGS_" + name
		val, ok := p.fs.LookupEnv(env)
		if !ok {
			if mustExist {
				p.errs[name] = "ERROR: " + env + " not found in environment\n"
			}
			continue
		}
		if val == "fromenv" || val == "tryfromenv" {
			p.errs[name] = "ERROR: infinite recursion on environment flag '" + val + "'\n"
			continue
		}
		if err := p.set(f, val); err != nil {
			return err
		}
	}
	return nil
}

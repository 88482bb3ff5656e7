package gflags

import (
	"fmt"
	"sort"
	"strings"
)

// ExitError tells the caller that gflags would have ended the program with
// Code, after the output that goes with it has been written: 1 for errors
// and help, 0 for --version.
type ExitError struct {
	Code int
}

func (e *ExitError) Error() string { return fmt.Sprintf("gflags: exit status %d", e.Code) }

// maxNesting bounds --flagfile and --fromenv recursion, which gflags leaves
// unbounded (it would overflow the C++ stack).
const maxNesting = 64

// parser holds the state of one Parse call: the error text collected per
// flag name (printed sorted by name, as gflags' std::map does) and the
// names that were not found, for --undefok.
type parser struct {
	fs        *FlagSet
	errs      map[string]string
	undefined map[string]bool
	depth     int
}

// Parse parses args (the command line without the program name). It returns
// the positional arguments, in order, those after "--" included. On help,
// version or any error it writes what gflags writes and returns an
// *ExitError with gflags' exit code.
func (fs *FlagSet) Parse(args []string) ([]string, error) {
	p := &parser{fs: fs, errs: make(map[string]string), undefined: make(map[string]bool)}
	rest, err := p.parseArgs(args)
	if err != nil {
		return rest, err
	}
	if code, done := fs.handleHelpFlags(); done {
		return rest, &ExitError{Code: code}
	}
	p.validateUnset()
	if err := p.report(); err != nil {
		return rest, err
	}
	return rest, nil
}

func (p *parser) parseArgs(args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if len(arg) < 2 || arg[0] != '-' { // "-" alone is an argument too
			rest = append(rest, arg)
			continue
		}
		body := arg[1:]
		if body[0] == '-' {
			body = body[1:]
		}
		if body == "" { // "--": the rest is positional
			return append(rest, args[i+1:]...), nil
		}
		f, key, value, hasValue, msg := p.fs.split(body)
		if f == nil {
			p.undefined[key] = true
			p.errs[key] = msg
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				m := "ERROR: flag '" + arg + "' is missing its argument"
				if f.Help != "" && f.Help[0] > '\001' {
					m += "; flag description: " + f.Help
				}
				p.errs[key] = m + "\n"
				return append(rest, args[i+1:]...), nil // gflags stops here
			}
			i++
			value = args[i]
			p.warnDashValue(f, value)
		}
		if err := p.set(f, value); err != nil {
			return rest, err
		}
	}
	return rest, nil
}

// warnDashValue is gflags' hint for "--string_flag --other": a string value
// taken from the next argument that starts with '-' for a flag whose help
// talks about true or false. gflags writes it without a newline.
func (p *parser) warnDashValue(f *Flag, value string) {
	if value != "" && value[0] == '-' && f.Type == TypeString &&
		(strings.Contains(f.Help, "true") || strings.Contains(f.Help, "false")) {
		fmt.Fprintf(p.fs.stderr, "Did you really mean to set flag '%s' to the value '%s'?", f.Name, value)
	}
}

// findFlag looks a name up, retrying with dashes turned into underscores.
func (fs *FlagSet) findFlag(name string) *Flag {
	if f := fs.flags[name]; f != nil {
		return f
	}
	if strings.IndexByte(name, '-') < 0 {
		return nil
	}
	return fs.flags[strings.ReplaceAll(name, "-", "_")]
}

// split takes "name" or "name=value" (dashes already stripped) and finds the
// flag, handling "noname" for bools. key is the name the errors are filed
// under. A bool without a value gets "1" ("0" for the no-form).
func (fs *FlagSet) split(body string) (f *Flag, key, value string, hasValue bool, msg string) {
	key = body
	if eq := strings.IndexByte(body, '='); eq >= 0 {
		key, value, hasValue = body[:eq], body[eq+1:], true
	}
	f = fs.findFlag(key)
	if f == nil {
		unknown := "ERROR: unknown command line flag '" + key + "'\n"
		if !strings.HasPrefix(key, "no") {
			return nil, key, "", false, unknown
		}
		f = fs.findFlag(key[2:])
		if f == nil {
			return nil, key, "", false, unknown
		}
		if f.Type != TypeBool {
			return nil, key, "", false, fmt.Sprintf("ERROR: boolean value (%s) specified for %s command line flag\n", key, f.Type)
		}
		return f, key[2:], "0", true, ""
	}
	if !hasValue && f.Type == TypeBool {
		return f, key, "1", true, ""
	}
	return f, key, value, hasValue, ""
}

// set parses, validates and stores one value, then runs the recursive
// built-ins (--flagfile, --fromenv, --tryfromenv) when one of them was set.
func (p *parser) set(f *Flag, text string) error {
	v, ok := parseValue(f.Type, text)
	if !ok {
		p.errs[f.Name] = fmt.Sprintf("ERROR: illegal value '%s' specified for %s flag '%s'\n", text, f.Type, f.Name)
		return nil
	}
	if f.validator != nil && !f.validator(p.fs.stderr, f.Name, v) {
		p.errs[f.Name] = fmt.Sprintf("ERROR: failed validation of new value '%s' for flag '%s'\n", formatValue(f.Type, v), f.Name)
		return nil
	}
	f.store(v)
	f.modified = true
	if !f.Builtin {
		return nil
	}
	switch f.Name {
	case "flagfile":
		return p.flagfiles(p.fs.builtin.flagfile)
	case "fromenv":
		return p.fromEnv(p.fs.builtin.fromenv, true)
	case "tryfromenv":
		return p.fromEnv(p.fs.builtin.tryfromenv, false)
	}
	return nil
}

// validateUnset runs the validators of flags that were never set against
// their current (default) values.
func (p *parser) validateUnset() {
	for _, f := range p.fs.sorted() {
		if f.modified || f.validator == nil || f.validator(p.fs.stderr, f.Name, f.current()) {
			continue
		}
		if p.errs[f.Name] == "" {
			p.errs[f.Name] = "ERROR: --" + f.Name + " must be set on the commandline (default value fails validation)\n"
		}
	}
}

// report forgives unknown names listed in --undefok and prints the rest.
func (p *parser) report() error {
	if list := p.fs.builtin.undefok; list != "" {
		names, err := p.parseFlagList(list)
		if err != nil {
			return err
		}
		for _, name := range names {
			if p.undefined[name] {
				p.errs[name] = ""
			} else if p.undefined["no"+name] {
				p.errs["no"+name] = ""
			}
		}
	}
	keys := make([]string, 0, len(p.errs))
	for k, m := range p.errs {
		if m != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(p.errs[k])
	}
	return p.fatal(b.String())
}

package gflags

import (
	"fmt"
	"io"
	"os"
	"path"
	"sort"
)

// Flag describes one registered flag. Its fields are fixed at registration.
type Flag struct {
	Name    string
	Type    Type
	Help    string
	Default string // the default in gflags' text form ("0.5", "true", "abc")
	File    string // the source file the flag is listed under in --help
	Builtin bool   // one of gflags' own flags (flagfile, help, ...)

	def       scalar
	modified  bool
	bind      binding
	validator validator
}

// binding points at the variable a flag writes; exactly one field is set.
type binding struct {
	b   *bool
	i32 *int32
	u32 *uint32
	i64 *int64
	u64 *uint64
	f   *float64
	s   *string
}

// validator checks a value before it is stored; it may print to stderr.
type validator func(stderr io.Writer, name string, v scalar) bool

// IsSet reports whether the flag was given on the command line, in a flag
// file or through --fromenv/--tryfromenv, even if to its default value.
func (f *Flag) IsSet() bool { return f.modified }

// IsChanged reports whether the flag was given and now holds a value other
// than its default: "--statistics=0" is set but not changed.
func (f *Flag) IsChanged() bool { return f.modified && f.Value() != f.Default }

// Value returns the flag's current value in gflags' text form.
func (f *Flag) Value() string { return formatValue(f.Type, f.current()) }

func (f *Flag) current() scalar {
	var v scalar
	switch f.Type {
	case TypeBool:
		v.b = *f.bind.b
	case TypeInt32:
		v.i = int64(*f.bind.i32)
	case TypeUint32:
		v.u = uint64(*f.bind.u32)
	case TypeInt64:
		v.i = *f.bind.i64
	case TypeUint64:
		v.u = *f.bind.u64
	case TypeDouble:
		v.f = *f.bind.f
	case TypeString:
		v.s = *f.bind.s
	}
	return v
}

func (f *Flag) store(v scalar) {
	switch f.Type {
	case TypeBool:
		*f.bind.b = v.b
	case TypeInt32:
		*f.bind.i32 = int32(v.i)
	case TypeUint32:
		*f.bind.u32 = uint32(v.u)
	case TypeInt64:
		*f.bind.i64 = v.i
	case TypeUint64:
		*f.bind.u64 = v.u
	case TypeDouble:
		*f.bind.f = v.f
	case TypeString:
		*f.bind.s = v.s
	}
}

// FlagSet is a set of flags plus the state of gflags' built-in flags. It is
// not safe for concurrent use; parse once, then read the bound variables.
//
// Cost: parsing happens once at start-up and never on a benchmark's hot path.
// Registering db_bench's 442 flags (with gflags' own) takes about 0.5 ms and
// 120 KB (one Flag and one map entry each), and a typical 14-argument command
// line parses in about 0.8 ms more, mostly sorting the flags once to run the
// default-value validators in gflags' name order (BenchmarkNewFlagSet and
// BenchmarkParseTypical in dbbench/flags, on a shared 2-core machine).
type FlagSet struct {
	argv0   string // as the program was invoked; used in the usage message
	prog    string // base name of argv0
	version string
	// versionDetail follows the version line (SetVersionDetail).
	versionDetail string
	usage         string
	file          string // file that new registrations are listed under

	flags map[string]*Flag

	stdout, stderr io.Writer

	// LookupEnv reads environment variables for --fromenv/--tryfromenv.
	LookupEnv func(name string) (string, bool)
	// ReadFile reads --flagfile files.
	ReadFile func(name string) ([]byte, error)

	builtin builtinFlags
}

// builtinFlags are gflags' own flags.
type builtinFlags struct {
	flagfile, fromenv, tryfromenv, undefok string
	help, helpfull, helpshort, helppackage bool
	helpxml, version                       bool
	helpon, helpmatch                      string
	completionWord                         string
	completionColumns                      int32
}

// Source files the built-in flags are listed under in --help: the paths the
// Debian libgflags 2.2.2 build records, so help output matches that of the
// Debian tools.
const (
	gflagsSourceDir = "/build/gflags-QLcAqI/gflags-2.2.2/src/"
	fileGflags      = gflagsSourceDir + "gflags.cc"
	fileReporting   = gflagsSourceDir + "gflags_reporting.cc"
	fileCompletions = gflagsSourceDir + "gflags_completions.cc"
)

// NewFlagSet returns a FlagSet for a program invoked as argv0 ("./db_bench")
// reporting version for --version (empty: only the program name is printed).
// The usage message defaults to db_bench's "\nUSAGE:\n<argv0> [OPTIONS]...".
// Output goes to os.Stdout and os.Stderr until SetOutput is called.
func NewFlagSet(argv0, version string) *FlagSet {
	fs := &FlagSet{
		argv0:     argv0,
		prog:      path.Base(argv0),
		version:   version,
		usage:     "\nUSAGE:\n" + argv0 + " [OPTIONS]...",
		file:      "main.cc",
		flags:     make(map[string]*Flag),
		stdout:    os.Stdout,
		stderr:    os.Stderr,
		LookupEnv: os.LookupEnv,
		ReadFile:  os.ReadFile,
	}
	if argv0 == "" {
		fs.prog = ""
	}
	b := &fs.builtin
	fs.SetFile(fileGflags)
	fs.StringVar(&b.flagfile, "flagfile", "", "read flags from these files (comma-separated)")
	fs.StringVar(&b.fromenv, "fromenv", "", "set these flags from $FLAGS_<name>; a missing variable is an error")
	fs.StringVar(&b.tryfromenv, "tryfromenv", "", "set these flags from $FLAGS_<name> when the variable exists")
	fs.StringVar(&b.undefok, "undefok", "", "names of flags that may be given although this program does not define them")
	fs.SetFile(fileCompletions)
	fs.StringVar(&b.completionWord, "tab_completion_word", "", "word to complete for shell completion (accepted, not implemented)")
	fs.Int32Var(&b.completionColumns, "tab_completion_columns", 80, "terminal width for shell completion output")
	fs.SetFile(fileReporting)
	fs.BoolVar(&b.help, "help", false, "print every flag and exit")
	fs.BoolVar(&b.helpfull, "helpfull", false, "print every flag and exit (same as --help)")
	fs.BoolVar(&b.helpshort, "helpshort", false, "print the flags of the program's main file and exit")
	fs.StringVar(&b.helpon, "helpon", "", "print the flags of source files with this base name and exit")
	fs.StringVar(&b.helpmatch, "helpmatch", "", "print the flags of source files whose name contains this and exit")
	fs.BoolVar(&b.helppackage, "helppackage", false, "print the flags of the main file's directory and exit")
	fs.BoolVar(&b.helpxml, "helpxml", false, "print every flag as XML and exit")
	fs.BoolVar(&b.version, "version", false, "print the version and exit")
	for _, f := range fs.flags {
		f.Builtin = true
	}
	fs.SetFile("main.cc")
	return fs
}

// SetVersionDetail sets lines printed after the "PROG version V" line of
// --version (each ending in a newline).
func (fs *FlagSet) SetVersionDetail(lines string) { fs.versionDetail = lines }

// SetOutput sets where help and version text (stdout) and errors (stderr) go.
func (fs *FlagSet) SetOutput(stdout, stderr io.Writer) {
	fs.stdout, fs.stderr = stdout, stderr
}

// SetUsageMessage replaces the text printed after "<prog>: " by --help.
func (fs *FlagSet) SetUsageMessage(usage string) { fs.usage = usage }

// SetFile sets the source file name that flags registered from now on are
// listed under by --help, and matched against by --helpshort/--helpon.
func (fs *FlagSet) SetFile(name string) { fs.file = name }

// Lookup returns the named flag, or nil.
func (fs *FlagSet) Lookup(name string) *Flag { return fs.flags[name] }

// IsSet reports whether the named flag was given explicitly (see Flag.IsSet).
func (fs *FlagSet) IsSet(name string) bool {
	f := fs.flags[name]
	return f != nil && f.modified
}

// Visit calls fn for every explicitly set flag that is not a gflags built-in,
// in name order, with the flag's current value in gflags' text form.
func (fs *FlagSet) Visit(fn func(name, value string)) {
	for _, f := range fs.sorted() {
		if f.modified && !f.Builtin {
			fn(f.Name, f.Value())
		}
	}
}

// VisitAll calls fn for every flag, built-ins included, in name order.
func (fs *FlagSet) VisitAll(fn func(f *Flag)) {
	for _, f := range fs.sorted() {
		fn(f)
	}
}

func (fs *FlagSet) sorted() []*Flag {
	out := make([]*Flag, 0, len(fs.flags))
	for _, f := range fs.flags {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// register adds a flag; a duplicate name is a programming error and panics,
// as a duplicate DEFINE_ aborts a gflags program at start-up.
func (fs *FlagSet) register(name string, t Type, def scalar, help string, b binding) *Flag {
	if _, dup := fs.flags[name]; dup {
		panic(fmt.Sprintf("gflags: flag %q defined more than once", name))
	}
	if name == "" {
		panic("gflags: empty flag name")
	}
	f := &Flag{Name: name, Type: t, Help: help, Default: formatValue(t, def), File: fs.file, def: def, bind: b}
	f.store(def)
	fs.flags[name] = f
	return f
}

// BoolVar defines a bool flag stored in *p.
func (fs *FlagSet) BoolVar(p *bool, name string, def bool, help string) {
	fs.register(name, TypeBool, scalar{b: def}, help, binding{b: p})
}

// Int32Var defines an int32 flag stored in *p.
func (fs *FlagSet) Int32Var(p *int32, name string, def int32, help string) {
	fs.register(name, TypeInt32, scalar{i: int64(def)}, help, binding{i32: p})
}

// Uint32Var defines a uint32 flag stored in *p.
func (fs *FlagSet) Uint32Var(p *uint32, name string, def uint32, help string) {
	fs.register(name, TypeUint32, scalar{u: uint64(def)}, help, binding{u32: p})
}

// Int64Var defines an int64 flag stored in *p.
func (fs *FlagSet) Int64Var(p *int64, name string, def int64, help string) {
	fs.register(name, TypeInt64, scalar{i: def}, help, binding{i64: p})
}

// Uint64Var defines a uint64 flag stored in *p.
func (fs *FlagSet) Uint64Var(p *uint64, name string, def uint64, help string) {
	fs.register(name, TypeUint64, scalar{u: def}, help, binding{u64: p})
}

// DoubleVar defines a double flag stored in *p.
func (fs *FlagSet) DoubleVar(p *float64, name string, def float64, help string) {
	fs.register(name, TypeDouble, scalar{f: def}, help, binding{f: p})
}

// StringVar defines a string flag stored in *p.
func (fs *FlagSet) StringVar(p *string, name string, def string, help string) {
	fs.register(name, TypeString, scalar{s: def}, help, binding{s: p})
}

// Bool defines a bool flag and returns its variable.
func (fs *FlagSet) Bool(name string, def bool, help string) *bool {
	p := new(bool)
	fs.BoolVar(p, name, def, help)
	return p
}

// Int32 defines an int32 flag and returns its variable.
func (fs *FlagSet) Int32(name string, def int32, help string) *int32 {
	p := new(int32)
	fs.Int32Var(p, name, def, help)
	return p
}

// Uint32 defines a uint32 flag and returns its variable.
func (fs *FlagSet) Uint32(name string, def uint32, help string) *uint32 {
	p := new(uint32)
	fs.Uint32Var(p, name, def, help)
	return p
}

// Int64 defines an int64 flag and returns its variable.
func (fs *FlagSet) Int64(name string, def int64, help string) *int64 {
	p := new(int64)
	fs.Int64Var(p, name, def, help)
	return p
}

// Uint64 defines a uint64 flag and returns its variable.
func (fs *FlagSet) Uint64(name string, def uint64, help string) *uint64 {
	p := new(uint64)
	fs.Uint64Var(p, name, def, help)
	return p
}

// Double defines a double flag and returns its variable.
func (fs *FlagSet) Double(name string, def float64, help string) *float64 {
	p := new(float64)
	fs.DoubleVar(p, name, def, help)
	return p
}

// String defines a string flag and returns its variable.
func (fs *FlagSet) String(name string, def string, help string) *string {
	p := new(string)
	fs.StringVar(p, name, def, help)
	return p
}

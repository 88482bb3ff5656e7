// Package gflags parses command lines the way the C++ gflags 2.2.2 library
// does, so that a Go program can be a drop-in replacement for a C++ tool such
// as RocksDB's db_bench: same syntax, same built-in flags, same messages on
// the same streams, same exit codes.
//
// # Contract
//
// A FlagSet holds typed flags (bool, int32, uint32, int64, uint64, double,
// string). Parse walks the arguments (without the program name) and returns
// the positional arguments, or an *ExitError once it has written what gflags
// would write (help, version, error lines). The package never calls os.Exit.
//
// # Syntax
//
//   - "-name" and "--name" are the same. A value is attached with "=" or, for
//     every type but bool, given as the next argument ("--num 5"); that next
//     argument is taken whatever it looks like ("--num -5", "--db --x").
//   - Bools: bare "--name" is true, "--name=V" with V one of 1/0, t/f,
//     true/false, y/n, yes/no (any case), and "--noname" is false. A bare
//     bool never takes the next argument.
//   - Integers are decimal, or hexadecimal after a leading "0x"/"0X"; a
//     leading 0 is not octal; no suffixes; out-of-range values are illegal;
//     unsigned flags reject a leading '-'. Doubles use C strtod syntax
//     (decimal, hex floats, inf, nan). Strings take the value as is.
//   - A dash in a name stands for an underscore when no flag has the dashed
//     name ("--use-existing-db" is "--use_existing_db").
//   - "-" alone and anything not starting with '-' is positional; "--" ends
//     flag parsing. The last value given for a flag wins.
//
// # Built-in flags
//
// --flagfile=F1,F2 reads flags from files: one "--name=value" (or "-name",
// "--noname") per line, leading white space skipped, lines starting with '#'
// or empty ignored, trailing white space kept as part of the value. A line
// that does not start with '-' is a list of program-name globs that starts a
// section; the flags of a section apply only if one glob matches the program.
// Unknown flags and value-less non-bool flags in a file are ignored silently,
// as in gflags. Files may name further flag files.
//
// --fromenv=a,b sets flag a from $FLAGS_a (a missing variable is an error);
// --tryfromenv=a,b does the same but skips missing variables.
//
// --undefok=a,b turns "unknown command line flag" for a (or noa) into silence.
//
// --help and --helpfull print every flag; --helpshort, --helpon=M,
// --helpmatch=S and --helppackage print the flags of matching source files;
// --helpxml prints XML. All of them exit with code 1. --version prints
// "<prog> version <version>" and exits with code 0. --tab_completion_word and
// --tab_completion_columns are accepted and ignored.
//
// # Errors
//
// Problems are collected per flag name while parsing and reported together,
// sorted by flag name, on stderr, followed by exit code 1:
//
//	ERROR: unknown command line flag 'foo'
//	ERROR: illegal value 'abc' specified for int64 flag 'num'
//	ERROR: flag '--num' is missing its argument; flag description: <help>
//	ERROR: failed validation of new value '100' for flag 'readwritepercent'
//	ERROR: boolean value (nonum) specified for int64 command line flag
//
// A validator prints its own message at the moment it rejects a value, so its
// line comes before the ERROR lines. A missing value stops the parse at once.
// Unreadable flag files ("F: No such file or directory") and malformed flag
// lists ("ERROR: empty flaglist entry") stop the program immediately.
//
// Validators also run, after help handling, on every flag that was not set,
// against its default value.
package gflags

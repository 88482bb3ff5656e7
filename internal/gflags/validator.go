package gflags

import (
	"fmt"
	"io"
)

// SetValidator attaches a check to the named flag, like gflags'
// RegisterFlagValidator. fn must be a func(stderr io.Writer, name string, v T)
// bool where T is the flag's Go type (bool, int32, uint32, int64, uint64,
// float64 or string). It runs on every explicit value before it is stored
// and, after help handling, on the default of a flag that was never set. A
// validator that rejects a value should print its own message to stderr;
// gflags then adds "ERROR: failed validation of new value ...".
func (fs *FlagSet) SetValidator(name string, fn any) error {
	f := fs.flags[name]
	if f == nil {
		return fmt.Errorf("gflags: no flag %q to attach a validator to", name)
	}
	var v validator
	switch fn := fn.(type) {
	case func(io.Writer, string, bool) bool:
		if f.Type == TypeBool {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, s.b) }
		}
	case func(io.Writer, string, int32) bool:
		if f.Type == TypeInt32 {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, int32(s.i)) }
		}
	case func(io.Writer, string, uint32) bool:
		if f.Type == TypeUint32 {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, uint32(s.u)) }
		}
	case func(io.Writer, string, int64) bool:
		if f.Type == TypeInt64 {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, s.i) }
		}
	case func(io.Writer, string, uint64) bool:
		if f.Type == TypeUint64 {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, s.u) }
		}
	case func(io.Writer, string, float64) bool:
		if f.Type == TypeDouble {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, s.f) }
		}
	case func(io.Writer, string, string) bool:
		if f.Type == TypeString {
			v = func(w io.Writer, n string, s scalar) bool { return fn(w, n, s.s) }
		}
	}
	if v == nil {
		return fmt.Errorf("gflags: validator %T does not fit %s flag %q", fn, f.Type, name)
	}
	f.validator = v
	return nil
}

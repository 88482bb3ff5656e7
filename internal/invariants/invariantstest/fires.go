// Package invariantstest holds the test helper that checks an invariant
// check fires: tests of packages with checks (build-tagged
// `invariants || race`) provoke a violation and call Fires around it.
package invariantstest

import (
	"strings"
	"testing"
)

// Fires runs f and fails t unless f panics through invariants.Violated with
// a message containing want.
func Fires(t testing.TB, want string, f func()) {
	t.Helper()
	msg, panicked := catch(f)
	if !panicked {
		t.Fatalf("no invariant fired; want one saying %q", want)
	}
	if !strings.HasPrefix(msg, "invariant violated: ") || !strings.Contains(msg, want) {
		t.Fatalf("panic %q; want an invariant violation saying %q", msg, want)
	}
}

// catch runs f and returns what it panicked with, as text.
func catch(f func()) (msg string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, panicked = toString(r), true
		}
	}()
	f()
	return "", false
}

func toString(r any) string {
	if s, ok := r.(string); ok {
		return s
	}
	if e, ok := r.(error); ok {
		return e.Error()
	}
	return "a non-string panic"
}

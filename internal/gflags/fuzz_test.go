package gflags

import (
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary argument lists (split on NUL) and flag-file
// contents to Parse. It must never panic, and whatever it accepts must leave
// every flag with a value that formats and parses back to itself.
func FuzzParse(f *testing.F) {
	seeds := []struct{ args, file string }{
		{"--num=5\x00--histogram", ""},
		{"--flagfile=ff\x00--db\x00x", "--num=3\n#c\nprog\n--threads=2\r\n"},
		{"-num\x00-5\x00--\x00--x", ""},
		{"--undefok=a,b\x00--a\x00--nob\x00--noc", ""},
		{"--fromenv=num\x00--tryfromenv=,", ""},
		{"--help\x00--helpxml\x00--helpon=x", ""},
		{"--compression_ratio=0x1.8p3\x00--cache_size_u=\t-3", ""},
		{"--readwritepercent=0x64\x00--nonum", ""},
	}
	for _, s := range seeds {
		f.Add(s.args, s.file)
	}
	f.Fuzz(func(t *testing.T, argText, fileText string) {
		fs, _, _, _ := newTestSet(t)
		fs.SetOutput(io.Discard, io.Discard)
		fs.LookupEnv = func(k string) (string, bool) {
			return strings.TrimPrefix(k, "FLAGS_"), len(k)%2 == 0
		}
		fs.ReadFile = func(name string) ([]byte, error) {
			if name == "ff" {
				return []byte(fileText), nil
			}
			return nil, os.ErrNotExist
		}
		var args []string
		if argText != "" {
			args = strings.Split(argText, "\x00")
		}
		_, err := fs.Parse(args)
		if err != nil && exitCode(err) < 0 {
			t.Fatalf("unexpected error type %T", err)
		}
		fs.VisitAll(func(fl *Flag) {
			text := fl.Value()
			v, ok := parseValue(fl.Type, text)
			if fl.Type == TypeDouble && strings.Contains(text, "nan") {
				return
			}
			if !ok || formatValue(fl.Type, v) != text {
				t.Fatalf("flag %s: value %q does not round-trip", fl.Name, text)
			}
		})
	})
}

// FuzzParseValue checks the number parsers never panic and agree with
// formatting on what they accept.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"0x", "-0", "+7", " 12", "1e308", "0x1p-1074", "nan(abc)", "\t-1", "18446744073709551615"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for ty := TypeBool; ty <= TypeString; ty++ {
			v, ok := parseValue(ty, s)
			if !ok {
				continue
			}
			text := formatValue(ty, v)
			if ty == TypeDouble && strings.Contains(text, "nan") {
				continue
			}
			if w, ok2 := parseValue(ty, text); !ok2 || formatValue(ty, w) != text {
				t.Fatalf("%s %q -> %q does not round-trip", ty, s, text)
			}
		}
	})
}

// FuzzFlagfile feeds arbitrary bytes to the --flagfile reader, the one
// decoder of on-disk data in this package. It must never panic.
func FuzzFlagfile(f *testing.F) {
	for _, s := range []string{
		"--num=3\n# c\n\n  -histogram\n",
		"prog other\n--num=4\r\n--db x\n",
		"--flagfile=ff\n",
		"--num=5\n--threads=3\r\n",
		"\x00--num=1",
		"--fromenv=num,\n--undefok=a\n--noa\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fs, _, _, _ := newTestSet(t)
		fs.SetOutput(io.Discard, io.Discard)
		fs.ReadFile = func(name string) ([]byte, error) {
			if name == "ff" {
				return []byte(text), nil
			}
			return nil, os.ErrNotExist
		}
		if _, err := fs.Parse([]string{"--flagfile=ff"}); err != nil && exitCode(err) < 0 {
			t.Fatalf("unexpected error type %T", err)
		}
	})
}

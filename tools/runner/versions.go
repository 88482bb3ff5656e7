package runner

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// Build describes how a program was built, as far as it can be known: for a
// Go binary, the module version and the VCS revision the go command stamped
// into it (debug/buildinfo), its build tags and the versions of the engines
// it links; for another binary (C++ db_bench), only its path, the engine
// version then comes from each pass's header (PassResult.Version).
type Build struct {
	Path      string            `json:"path"`
	Module    string            `json:"module,omitempty"`   // main module path
	Version   string            `json:"version,omitempty"`  // main module version, "(devel)" for a source build
	Revision  string            `json:"revision,omitempty"` // vcs.revision
	Time      string            `json:"vcs_time,omitempty"` // vcs.time
	Modified  bool              `json:"modified,omitempty"` // vcs.modified: built from a tree with changes
	Tags      string            `json:"tags,omitempty"`     // -tags
	GoVersion string            `json:"go,omitempty"`       // toolchain
	Engines   map[string]string `json:"engines,omitempty"`  // linked engine module -> version (pebble)
	Error     string            `json:"error,omitempty"`    // why nothing more is known
}

// engineModules are the dependencies whose versions say which engine code a
// binary runs.
var engineModules = map[string]string{
	"github.com/cockroachdb/pebble/v2": "pebble",
	"github.com/dgraph-io/badger/v4":   "badger",
}

// BinaryBuild reads the build information of the program at path.
func BinaryBuild(path string) Build {
	b := Build{Path: path}
	if abs, err := filepath.Abs(path); err == nil {
		b.Path = abs
	}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		if _, serr := os.Stat(path); serr != nil {
			b.Error = serr.Error()
		} else {
			b.Error = "not a Go binary; its engine version is in the pass headers"
		}
		return b
	}
	fromBuildInfo(&b, bi)
	return b
}

// SelfBuild is the build information of the running program (benchsuite).
func SelfBuild() Build {
	b := Build{Path: os.Args[0]}
	if exe, err := os.Executable(); err == nil {
		b.Path = exe
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		b.Error = "no build information"
		return b
	}
	fromBuildInfo(&b, bi)
	return b
}

func fromBuildInfo(b *Build, bi *debug.BuildInfo) {
	b.Module, b.Version, b.GoVersion = bi.Main.Path, bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "-tags":
			b.Tags = s.Value
		}
	}
	for _, d := range bi.Deps {
		name, ok := engineModules[d.Path]
		if !ok {
			continue
		}
		if b.Engines == nil {
			b.Engines = map[string]string{}
		}
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Path + " " + d.Replace.Version
		}
		b.Engines[name] = v
	}
}

// String is the one-line form the report prints: "github.com/x/y (devel)
// 0123456789ab+modified tags=rocksdb go1.24.1; pebble v2.1.7".
func (b Build) String() string {
	if b.Module == "" {
		return b.Error
	}
	parts := []string{b.Module, b.Version}
	if b.Revision != "" {
		rev := b.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if b.Modified {
			rev += "+modified"
		}
		parts = append(parts, rev)
	}
	if b.Tags != "" {
		parts = append(parts, "tags="+b.Tags)
	}
	parts = append(parts, b.GoVersion)
	s := strings.Join(parts, " ")
	var engines []string
	for _, name := range []string{"pebble", "badger"} {
		if v, ok := b.Engines[name]; ok {
			engines = append(engines, name+" "+v)
		}
	}
	if len(engines) > 0 {
		s += "; " + strings.Join(engines, ", ")
	}
	return s
}

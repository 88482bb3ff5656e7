package reliability

import (
	"io"
	"os"
	"path/filepath"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// Broken engines, registered in the test binary (and so in its children),
// that show each probe catches what it is meant to catch.
func init() {
	native, err := engine.Lookup("native")
	if err != nil {
		panic(err)
	}
	engine.Register("test-forgetful", forgetful{native})
	engine.Register("test-panicky", panicky{native})
}

// forgetful is the native engine that deletes its WALs before opening, so
// every write not yet in a table is lost.
type forgetful struct{ engine.Opener }

func (f forgetful) Open(dir string, o *options.Options, warn io.Writer) (engine.DB, error) {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, l := range logs {
		os.Remove(l)
	}
	return f.Opener.Open(dir, o, warn)
}

// panicky is the native engine that panics when opening a directory
// without CURRENT but with tables.
type panicky struct{ engine.Opener }

func (p panicky) Open(dir string, o *options.Options, warn io.Writer) (engine.DB, error) {
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if _, err := os.Stat(filepath.Join(dir, "CURRENT")); os.IsNotExist(err) && len(tables) > 0 {
		panic("no CURRENT")
	}
	return p.Opener.Open(dir, o, warn)
}

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
	engine.Register("test-lagging", lagging{native})
	engine.Register("test-panicky", panicky{native})
}

// lagging is the native engine acknowledging each batch before writing
// it: Apply writes the batch lagBatches before, so a process kill loses
// the last acknowledged batches (as an engine buffering writes in the
// process would).
type lagging struct{ engine.Opener }

const lagBatches = 10

func (l lagging) Open(dir string, o *options.Options, warn io.Writer) (engine.DB, error) {
	db, err := l.Opener.Open(dir, o, warn)
	if err != nil {
		return nil, err
	}
	return &laggingDB{DB: db}, nil
}

type laggingDB struct {
	engine.DB
	held []*recBatch
}

// recBatch records a batch's writes.
type recBatch struct{ ops [][2][]byte } // key, value (nil: delete)

func (b *recBatch) Put(k, v []byte) {
	b.ops = append(b.ops, [2][]byte{append([]byte{}, k...), append([]byte{}, v...)})
}
func (b *recBatch) Delete(k []byte)   { b.ops = append(b.ops, [2][]byte{append([]byte{}, k...), nil}) }
func (b *recBatch) Merge(k, v []byte) { panic("recBatch: the reliability checks write no merges") }
func (b *recBatch) DeleteRange(s, e []byte) {
	panic("recBatch: the reliability checks write no range deletions")
}
func (b *recBatch) Count() int { return len(b.ops) }
func (b *recBatch) Reset()     { b.ops = nil }
func (b *recBatch) Close()     {}

func (d *laggingDB) NewBatch() engine.Batch { return &recBatch{} }

func (d *laggingDB) Apply(b engine.Batch, wo *engine.WriteOptions) error {
	d.held = append(d.held, &recBatch{ops: b.(*recBatch).ops})
	if len(d.held) <= lagBatches {
		return nil
	}
	first := d.held[0]
	d.held = d.held[1:]
	real := d.DB.NewBatch()
	defer real.Close()
	for _, op := range first.ops {
		if op[1] == nil {
			real.Delete(op[0])
		} else {
			real.Put(op[0], op[1])
		}
	}
	return d.DB.Apply(real, wo)
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

package cspp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// stressKey draws from a key space built to force replacements: a few hot
// keys that collect hundreds of versions (outgrown blocks), and keys over a
// small alphabet behind shared prefixes, so nodes grow through every class
// and compressed paths split.
func stressKey(rng *rand.Rand, buf []byte) []byte {
	switch r := rng.IntN(10); {
	case r < 1:
		return append(buf[:0], "hot"...)
	case r < 4:
		return append(buf[:0], 'h', 'o', 't', byte(rng.IntN(64)))
	default:
		k := append(buf[:0], "pre/"[:1+rng.IntN(4)]...)
		n := 1 + rng.IntN(10)
		for i := 0; i < n; i++ {
			k = append(k, byte(rng.IntN(48)))
		}
		return k
	}
}

// stressValue encodes the key and the sequence, so a value read from a run
// reused too early cannot pass for the right one.
func stressValue(buf, key []byte, seq uint64) []byte {
	v := append(buf[:0], key...)
	v = append(v, '@')
	return strconv.AppendUint(v, seq, 10)
}

// checkValue reports whether v is stressValue(key, seq) for some seq and
// returns that seq.
func checkValue(key, v []byte) (uint64, bool) {
	if len(v) < len(key)+2 || !bytes.Equal(v[:len(key)], key) || v[len(key)] != '@' {
		return 0, false
	}
	seq, err := strconv.ParseUint(string(v[len(key)+1:]), 10, 64)
	return seq, err == nil
}

// TestReclaimStress runs writers that force many growth copies, splits and
// block growth against readers that Get and iterate both ways, checking
// every value against its key and sequence; run with -race.
func TestReclaimStress(t *testing.T) {
	const writers, readers = 4, 3
	per := 20000
	if testing.Short() {
		per = 5000
	}
	tr := New(256 << 20)
	stop := make(chan struct{})
	errc := make(chan error, readers)
	var rwg sync.WaitGroup
	for r := 0; r < readers; r++ {
		rwg.Add(1)
		go func(r int) {
			defer rwg.Done()
			if err := stressReader(tr, r, stop); err != nil {
				errc <- err
			}
		}(r)
	}
	// Extra passes from a goroutine of its own shorten the time from
	// retirement to reuse and bump the generation under the iterators often.
	rwg.Add(1)
	go func() {
		defer rwg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tr.a.reclaim()
			runtime.Gosched()
		}
	}()
	models := make([]refModel, writers)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 99))
			var kb, vb [32]byte
			for i := 0; i < per; i++ {
				seq := uint64(i*writers+w) + 1
				k := stressKey(rng, kb[:])
				v := stressValue(vb[:], k, seq)
				if err := tr.Add(seq, base.KindSet, k, v); err != nil {
					t.Error(err)
					return
				}
				models[w] = append(models[w], record{string(k), seq, base.KindSet, string(v)})
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	rwg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	_, dead, freed, reused := tr.a.reclaimStats()
	// How much is reused depends on scheduling: a goroutine preempted while
	// registered holds the epoch back. TestIterAcrossReclaim and
	// TestDeadWeight check that reuse happens; this test checks that what
	// happens is safe.
	t.Logf("retired %d slots, freed %d, reused %d, generation %d", dead, freed, reused, tr.a.rc.gen.Load())
	m := scanMergedModels(t, tr, models)
	for i := range m {
		v, _, ok := tr.Get([]byte(m[i].key), m[i].seq)
		if !ok || string(v) != m[i].value {
			t.Fatalf("Get(%q,%d) = %q %v, want %q", m[i].key, m[i].seq, v, ok, m[i].value)
		}
	}
}

// stressReader alternates Gets with short forward and backward walks until
// stop is closed. Its iterator renews its registration every few steps and
// is closed after one walk in three, so that it often registers again after
// runs it kept were reused.
func stressReader(tr *Trie, r int, stop <-chan struct{}) error {
	rng := rand.New(rand.NewPCG(uint64(r), 5))
	it := tr.NewIter()
	it.(*Iter).steps = 1 + r%7
	defer it.(*Iter).Close()
	var kb [32]byte
	var prev []byte
	for round := 0; ; round++ {
		select {
		case <-stop:
			return nil
		default:
		}
		k := stressKey(rng, kb[:])
		if v, _, ok := tr.Get(k, base.MaxSeq); ok {
			if _, good := checkValue(k, v); !good {
				return fmt.Errorf("Get(%q) = %q", k, v)
			}
		}
		snap := uint64(rng.IntN(40000))
		if v, _, ok := tr.Get(k, snap); ok {
			if s, good := checkValue(k, v); !good || s > snap {
				return fmt.Errorf("Get(%q, %d) = %q", k, snap, v)
			}
		}
		forward := round%2 == 0
		var ok bool
		if forward {
			ok = it.Seek(k, base.MaxSeq)
		} else {
			ok = it.SeekForPrev(k, 0)
		}
		var prevSeq uint64
		for step := 0; ok && step < 200; step++ {
			key := it.Key()
			if s, good := checkValue(key, it.Value()); !good || s != it.Seq() {
				return fmt.Errorf("entry (%q,%d) has value %q", key, it.Seq(), it.Value())
			}
			if step > 0 {
				c, s := bytes.Compare(prev, key), it.Seq()
				if forward && (c > 0 || c == 0 && prevSeq <= s) || !forward && (c < 0 || c == 0 && prevSeq >= s) {
					return fmt.Errorf("order (forward %v): (%q,%d) then (%q,%d)", forward, prev, prevSeq, key, it.Seq())
				}
			}
			prev = append(prev[:0], key...)
			prevSeq = it.Seq()
			if round%3 == 0 && step%50 == 49 {
				it.(*Iter).Close()
			}
			if forward {
				ok = it.Next()
			} else {
				ok = it.Prev()
			}
		}
	}
}

// stressAdder returns a function that adds n stress keys (stressKey,
// stressValue) to tr, one writer with sequences from 1 up, recording them
// in *m unsorted.
func stressAdder(t *testing.T, tr *Trie, m *refModel) func(n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var kb, vb [32]byte
	seq := uint64(0)
	return func(n int) {
		for i := 0; i < n; i++ {
			seq++
			k := stressKey(rng, kb[:])
			v := stressValue(vb[:], k, seq)
			if err := tr.Add(seq, base.KindSet, k, v); err != nil {
				t.Fatal(err)
			}
			*m = append(*m, record{string(k), seq, base.KindSet, string(v)})
		}
	}
}

// TestIterAcrossReclaim parks an iterator (Close: it keeps its entry but no
// registration), then retires and frees runs under it (growth copies of the
// nodes on its path), and checks that it carries on from the entry it was
// at.
func TestIterAcrossReclaim(t *testing.T) {
	tr := New(64 << 20)
	var m refModel
	add := stressAdder(t, tr, &m)
	add(2000)
	sort.Slice(m, m.less)
	fwd, back := tr.NewIter(), tr.NewIter()
	mid := m[len(m)/2]
	if !fwd.Seek([]byte(mid.key), mid.seq) || !back.Seek([]byte(mid.key), mid.seq) {
		t.Fatal("seek failed")
	}
	fwd.(memtable.Closer).Close()
	back.(memtable.Closer).Close()
	gen := tr.a.rc.gen.Load()
	_, _, _, reused0 := tr.a.reclaimStats()
	add(20000)
	for i := 0; i < 8; i++ {
		tr.a.reclaim()
	}
	add(2000)
	_, _, _, reused := tr.a.reclaimStats()
	if tr.a.rc.gen.Load() == gen || reused == reused0 {
		t.Fatalf("no reclamation under the iterator: gen %d -> %d, reused %d -> %d",
			gen, tr.a.rc.gen.Load(), reused0, reused)
	}
	sort.Slice(m, m.less)
	i := m.seek(mid.key, mid.seq)
	checkAt(t, "parked", fwd, true, m, i)
	for j := i + 1; j < min(i+500, len(m)); j++ {
		checkAt(t, "Next after reclaim", fwd, fwd.Next(), m, j)
	}
	for j := i - 1; j >= max(i-500, 0); j-- {
		checkAt(t, "Prev after reclaim", back, back.Prev(), m, j)
	}
}

package lsm

import "testing"

// BenchmarkBatchPutDecode builds a batch of 64 Puts of 16-byte keys and
// 100-byte values and decodes it record by record, as a commit group's
// memtable insert does: the per-record cost of the batch format.
func BenchmarkBatchPutDecode(b *testing.B) {
	key, value := make([]byte, 16), make([]byte, 100)
	batch := NewBatch()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		batch.Reset()
		for j := range 64 {
			key[0], key[1] = byte(i), byte(j)
			batch.Put(key, value)
		}
		r, err := newBatchReader(batch.Repr())
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, _, _, _, ok, err := r.next()
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
		}
	}
}

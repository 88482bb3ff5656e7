package rtable

import (
	"fmt"
	"hash/crc32"
)

// The Writer's value path: values go to the value area as they arrive,
// except that a ValueDict writer first holds the first DictSampleBytes of
// values, chooses the dictionary and the codec from them (chooseDict),
// writes the dictionary at the start of the file and then those values.

// addValue stores v, or holds it while the dictionary is being chosen.
func (w *Writer) addValue(v []byte) error {
	if w.codec == ValueDict && !w.dictChosen {
		w.sample = append(w.sample, v...)
		w.sampleEnds = append(w.sampleEnds, len(w.sample))
		if len(w.sample) < DictSampleBytes {
			return nil
		}
		return w.chooseDict()
	}
	return w.storeValue(w.encodeValue(v))
}

// finishValues stores the values still held, if any.
func (w *Writer) finishValues() error {
	if w.codec == ValueDict && !w.dictChosen {
		return w.chooseDict()
	}
	return nil
}

// sampleValue returns held value i.
func (w *Writer) sampleValue(i int) []byte {
	start := 0
	if i > 0 {
		start = w.sampleEnds[i-1]
	}
	return w.sample[start:w.sampleEnds[i]]
}

// chooseDict builds a dictionary from the held values and keeps it when
// the held values take fewer bytes coded against it, dictionary included,
// than snappy makes of them one by one (estimated from every fourth value
// of a large sample); else the table falls back to ValueSnappy. Then it
// stores the held values.
//
// The dictionary is built greedily in value order, in the same pass that
// codes the held values: a value of dictMatch bytes or more joins it when
// coding it against the dictionary so far saves less than half its bytes
// and there is room, and is then coded as one copy of itself. So a value
// that recurs (db_bench's values are slices of one 1 MiB buffer) enters
// once, and every later occurrence is a copy. The dictionary only grows,
// so a value's operations stay valid as it does.
func (w *Writer) chooseDict() error {
	w.dictChosen = true
	enc := newDictEncoder()
	coded := make([]byte, 0, len(w.sample)/4)
	codedEnds := make([]int, len(w.sampleEnds))
	for i := range w.sampleEnds {
		v := w.sampleValue(i)
		start := len(coded)
		coded = enc.encode(coded, v)
		if len(v) >= dictMatch && len(coded)-start > len(v)/2 && len(enc.dict)+len(v) <= MaxDictBytes {
			coded = appendCopy(coded[:start], len(v), len(enc.dict), 0)
			enc.add(v)
		}
		codedEnds[i] = len(coded)
	}
	stride := 1
	if len(w.sampleEnds) >= 4096 {
		stride = 4
	}
	snappyCost := 0
	w.codec = ValueSnappy
	for i := 0; i < len(w.sampleEnds); i += stride {
		snappyCost += stride * len(w.encodeValue(w.sampleValue(i)))
	}
	if len(coded)+len(enc.dict) < snappyCost {
		w.codec, w.dict = ValueDict, enc
		// The dictionary is final: every copy's offset takes the same
		// width from here on, in the held values too.
		enc.offsetBytes = dictOffsetBytes(len(enc.dict))
		padded := make([]byte, 0, len(coded)+len(coded)/2)
		start := 0
		for i, end := range codedEnds {
			padded = padCopies(padded, coded[start:end], enc.offsetBytes)
			start, codedEnds[i] = end, len(padded)
		}
		coded = padded
		if err := w.write(enc.dict); err != nil {
			return err
		}
		w.areaStart = w.off
	}
	start := 0
	for i, end := range codedEnds {
		stored := coded[start:end]
		if w.codec != ValueDict {
			stored = w.encodeValue(w.sampleValue(i))
		}
		if err := w.storeValue(stored); err != nil {
			return err
		}
		start = end
	}
	w.sample, w.sampleEnds = nil, nil
	return nil
}

// storeValue writes the next value as stored and records its end and its
// group's checksum.
func (w *Writer) storeValue(stored []byte) error {
	i := w.values
	if i == 0 {
		w.valueLen = len(stored)
	}
	if w.valueEnds == nil && len(stored) != w.valueLen {
		w.valueEnds = make([]uint64, i, max(2*i, 1024))
		for j := range w.valueEnds {
			w.valueEnds[j] = uint64(j+1) * uint64(w.valueLen)
		}
	}
	if _, err := w.out.Write(stored); err != nil {
		w.err = fmt.Errorf("rtable: write: %w", err)
		return w.err
	}
	w.off += uint64(len(stored))
	w.groupCRC = crc32.Update(w.groupCRC, crcTable, stored)
	if w.valueEnds != nil {
		w.valueEnds = append(w.valueEnds, w.off-w.areaStart)
	}
	if (i+1)%groupLen == 0 {
		w.groupCRCs = append(w.groupCRCs, w.groupCRC)
		w.groupCRC = 0
	}
	w.values++
	return nil
}

package tracefmt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// maxPayload bounds a record's payload, so that a corrupt length cannot
// make the reader allocate gigabytes.
const maxPayload = 1 << 30

// Record is one record of a trace. Payload is valid until the reader's
// next Next.
type Record struct {
	TS      uint64 // microseconds since the Unix epoch
	Type    Type
	Payload []byte
}

// Reader reads a trace file record by record, reusing one payload buffer.
type Reader struct {
	r        *bufio.Reader
	head     [recordHeaderSize]byte
	payload  []byte
	version  int
	headerTS uint64
	endTS    uint64 // the footer's timestamp, once read
	done     bool
}

// NewReader reads and checks the header of the trace in r.
func NewReader(r io.Reader) (*Reader, error) {
	t := &Reader{r: bufio.NewReaderSize(r, 64<<10)}
	rec, err := t.read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect header.", ErrCorrupt)
	}
	if err != nil {
		return nil, err
	}
	if rec.Type != TypeBegin {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect header.", ErrCorrupt)
	}
	if !bytes.HasPrefix(rec.Payload, []byte(Magic)) {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect magic.", ErrCorrupt)
	}
	fields := bytes.SplitN(rec.Payload, []byte("\t"), 4)
	if len(fields) < 4 {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect header.", ErrCorrupt)
	}
	tv, ok := bytes.CutPrefix(fields[1], []byte("Trace Version: "))
	if !ok {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect header.", ErrCorrupt)
	}
	if t.version, err = ParseVersion(string(tv)); err != nil {
		return nil, err
	}
	dv, ok := bytes.CutPrefix(fields[2], []byte("RocksDB Version: "))
	if !ok {
		return nil, fmt.Errorf("%w: Corrupted trace file. Incorrect header.", ErrCorrupt)
	}
	if _, err = ParseVersion(string(dv)); err != nil {
		return nil, err
	}
	t.headerTS = rec.TS
	return t, nil
}

// ParseVersion reads "major.minor" as RocksDB does: exactly one '.', the
// rest digits, the value the number all the digits make ("0.2" is 2).
func ParseVersion(s string) (int, error) {
	if bytes.Count([]byte(s), []byte(".")) != 1 {
		return 0, fmt.Errorf("%w: Corrupted trace file. Incorrect version format.", ErrCorrupt)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
		case c >= '0' && c <= '9' && n < 1<<24:
			n = n*10 + int(c-'0')
		default:
			return 0, fmt.Errorf("%w: Corrupted trace file. Incorrect version format", ErrCorrupt)
		}
	}
	return n, nil
}

// Version is the trace format version of the header, as ParseVersion reads it.
func (t *Reader) Version() int { return t.version }

// HeaderTS is the header's timestamp, where replay's clock starts.
func (t *Reader) HeaderTS() uint64 { return t.headerTS }

// EndTS is the footer's timestamp once Next has read it, else 0.
func (t *Reader) EndTS() uint64 { return t.endTS }

// Next returns the next record after the header; io.EOF after the footer
// or at the end of a file that stops between records.
func (t *Reader) Next() (Record, error) {
	if t.done {
		return Record{}, io.EOF
	}
	rec, err := t.read()
	if err == nil && rec.Type == TypeEnd {
		t.endTS = rec.TS
		err = io.EOF
	}
	if err != nil {
		t.done = true
		return Record{}, err
	}
	return rec, nil
}

// read reads one record.
func (t *Reader) read() (Record, error) {
	n, err := io.ReadFull(t.r, t.head[:])
	if err == io.EOF || (err == io.ErrUnexpectedEOF && n == 0) {
		return Record{}, io.EOF
	}
	if err != nil {
		return Record{}, truncated(err)
	}
	size := binary.LittleEndian.Uint32(t.head[9:])
	if size > maxPayload {
		return Record{}, fmt.Errorf("%w: trace record of %d bytes", ErrCorrupt, size)
	}
	// Grow the buffer as bytes arrive, so that a corrupt length costs no
	// more memory than the file holds.
	t.payload = t.payload[:0]
	for left := int(size); left > 0; {
		chunk := min(left, 1<<20)
		from := len(t.payload)
		t.payload = slices.Grow(t.payload, chunk)[:from+chunk]
		if _, err := io.ReadFull(t.r, t.payload[from:]); err != nil {
			return Record{}, truncated(err)
		}
		left -= chunk
	}
	return Record{TS: binary.LittleEndian.Uint64(t.head[:8]), Type: Type(t.head[8]), Payload: t.payload}, nil
}

// truncated says a record was cut short, or passes on a read error.
func truncated(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: trace file ends inside a record", ErrCorrupt)
	}
	return err
}

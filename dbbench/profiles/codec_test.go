package profiles

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"testing"
)

func TestCreateMatchesReferenceShape(t *testing.T) {
	g := NewGenerator(DefaultSeed)
	var p Profile
	g.Create(&p, 42)
	if got := string(p.Email); got != "user000000000042@example42.com" {
		t.Errorf("email %q", got)
	}
	if got := string(p.DisplayName); got != "User 000000000042" {
		t.Errorf("display name %q", got)
	}
	if !bytes.HasPrefix(p.Bio, []byte("Profile 42 prefers ")) || !bytes.Contains(p.Bio, []byte(" and has segment ")) {
		t.Errorf("bio %q", p.Bio)
	}
	if p.CreatedAt != g.CreatedAt(42) || p.CreatedAt < baseCreatedAt+42_000 || p.CreatedAt >= baseCreatedAt+43_000 {
		t.Errorf("created at %d", p.CreatedAt)
	}
	before := p.LastLogin
	g.Update(&p)
	if p.LastLogin < before+loginStep || !bytes.HasSuffix(p.Bio, []byte(" updated")) {
		t.Errorf("update: last login %d -> %d, bio %q", before, p.LastLogin, p.Bio)
	}
	if len(p.Email) != 30 {
		t.Errorf("email length %d", len(p.Email))
	}
}

func TestRecordRoundTrip(t *testing.T) {
	g := NewGenerator(DefaultSeed)
	var p, q Profile
	for _, id := range []int64{1, 2, 97, 123456789, math.MaxInt32} {
		g.Create(&p, id)
		g.Update(&p)
		rec := AppendRecord(nil, &p)
		if err := DecodeRecord(&q, rec); err != nil {
			t.Fatalf("id %d: %v", id, err)
		}
		if again := AppendRecord(nil, &q); !bytes.Equal(rec, again) {
			t.Fatalf("id %d: round trip %q != %q", id, again, rec)
		}
	}
	// The ninth field keeps any further '|', like Split('|', 9).
	if err := DecodeRecord(&q, []byte("1|e|US|active|2|3|4|User|a|b|c")); err != nil || string(q.Bio) != "a|b|c" {
		t.Fatalf("bio with separators: %q, %v", q.Bio, err)
	}
	if err := DecodeRecord(&q, []byte("-9223372036854775808|e|US|s|+2|3|-2147483648|d|b")); err != nil ||
		q.UserID != math.MinInt64 || q.CreatedAt != 2 || q.Reputation != math.MinInt32 {
		t.Fatalf("signed extremes: %+v, %v", q, err)
	}
}

func TestDecodeRecordErrors(t *testing.T) {
	var p Profile
	for _, rec := range []string{
		"",
		"1|e|US|active|2|3|4|User",
		"x|e|US|active|2|3|4|User|bio",
		"1|e|US|active||3|4|User|bio",
		"1|e|US|active|2|3|2147483648|User|bio",
		"9223372036854775808|e|US|active|2|3|4|User|bio",
		"1|e|US|active|2|3| 4|User|bio",
		"1|e|US|active|2|-|4|User|bio",
	} {
		if err := DecodeRecord(&p, []byte(rec)); !errors.Is(err, ErrBadRecord) {
			t.Errorf("%q: error %v, want ErrBadRecord", rec, err)
		}
	}
}

func TestKeys(t *testing.T) {
	if got := string(AppendCountryStatusKey(nil, []byte("US"), []byte("active"), 42)); got != "US|active|00000000000000000042" {
		t.Errorf("country/status key %q", got)
	}
	if got := string(AppendCreatedAtKey(nil, 1672531200123, 7)); got != "00000001672531200123|00000000000000000007" {
		t.Errorf("created-at key %q", got)
	}
	if got := string(AppendReputationKey(nil, 999_999, 3)); got != "0000000001|00000000000000000003" {
		t.Errorf("reputation key %q", got)
	}
	if got := string(AppendCreatedAtKey(nil, 5, math.MaxInt64)); got != "00000000000000000005|09223372036854775807" {
		t.Errorf("created-at end key %q", got)
	}
	if got := string(appendPadded(nil, -5, 3)); got != "-005" {
		t.Errorf("negative padding %q", got)
	}
	// Higher reputation sorts first; equal reputation by ascending id.
	a := AppendReputationKey(nil, 500, 9)
	b := AppendReputationKey(nil, 400, 1)
	c := AppendReputationKey(nil, 400, 2)
	if bytes.Compare(a, b) >= 0 || bytes.Compare(b, c) >= 0 {
		t.Errorf("reputation order: %q %q %q", a, b, c)
	}
	id, err := ParseUserID(AppendUserID(nil, 1<<40+5))
	if err != nil || id != 1<<40+5 {
		t.Errorf("user id round trip %d, %v", id, err)
	}
	if _, err := ParseUserID([]byte{1, 2, 3}); err == nil {
		t.Error("short user id accepted")
	}
}

func TestChecksumText(t *testing.T) {
	// One word per UTF-16 code unit: "é" is one unit, U+1F600 two.
	a, b := NewChecksum(), NewChecksum()
	a.AddText([]byte("é😀"))
	for _, w := range []uint64{0xE9, 0xD83D, 0xDE00} {
		b.addWord(w)
	}
	if a.Sum() != b.Sum() {
		t.Errorf("non-ASCII text: %s != %s", a.Hex(), b.Hex())
	}
	c, d := NewChecksum(), NewChecksum()
	c.AddString("x😀")
	d.AddText([]byte("x😀"))
	if c.Sum() != d.Sum() {
		t.Error("AddString and AddText differ")
	}
	if got := FormatChecksum(0xab); got != "00000000000000AB" {
		t.Errorf("hex %q", got)
	}
}

func TestMergeChecksums(t *testing.T) {
	one := []WorkerChecksum{{}, {Active: true, Sum: 0x1234}, {}}
	if MergeChecksums(one) != 0x1234 {
		t.Error("a single active worker must give its own checksum")
	}
	two := []WorkerChecksum{{Active: true, Sum: 1}, {}, {Active: true, Sum: 0xABC}}
	want := NewChecksum()
	want.AddString("0000000000000001")
	want.AddString("0000000000000ABC")
	if MergeChecksums(two) != want.Sum() {
		t.Error("merge must fold the hex strings of active workers in order")
	}
	if MergeChecksums(nil) != fnvOffset {
		t.Error("no active worker gives the empty checksum")
	}
}

func TestDotNetRandomRanges(t *testing.T) {
	r := NewDotNetRandom(DefaultSeed)
	for i := 0; i < 10000; i++ {
		if v := r.NextInt64Range(1, 100_001); v < 1 || v > 100_000 {
			t.Fatalf("NextInt64Range out of range: %d", v)
		}
		if v := r.NextRange(-5, 5); v < -5 || v >= 5 {
			t.Fatalf("NextRange out of range: %d", v)
		}
		if v := r.NextRange(math.MinInt32, math.MaxInt32); v == math.MaxInt32 {
			t.Fatalf("NextRange large range returned the exclusive bound")
		}
		if v := r.NextN(7); v < 0 || v >= 7 {
			t.Fatalf("NextN out of range: %d", v)
		}
	}
	if r.NextInt64Range(3, 4) != 3 || r.NextInt64Range(3, 3) != 3 {
		t.Error("degenerate ranges must return the minimum")
	}
	// Same seed, same stream; the most negative seed is accepted.
	a, b := NewDotNetRandom(math.MinInt32), NewDotNetRandom(math.MinInt32)
	for i := 0; i < 100; i++ {
		if a.Next() != b.Next() {
			t.Fatal("streams of one seed differ")
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	g := NewGenerator(DefaultSeed)
	var p Profile
	for _, id := range []int64{1, 77, 99_999_999} {
		g.Create(&p, id)
		f.Add(AppendRecord(nil, &p))
	}
	f.Add([]byte("1|||||||"))
	f.Add([]byte("-1|a|b|c|-2|+3|-4|d|e|f"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		var q Profile
		if err := DecodeRecord(&q, rec); err != nil {
			if !errors.Is(err, ErrBadRecord) {
				t.Fatalf("error %v does not wrap ErrBadRecord", err)
			}
			return
		}
		// A record that decodes re-encodes to an equivalent record.
		var r Profile
		if err := DecodeRecord(&r, AppendRecord(nil, &q)); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if r.UserID != q.UserID || r.Reputation != q.Reputation || !bytes.Equal(r.Bio, q.Bio) ||
			strconv.FormatInt(r.CreatedAt, 10) != strconv.FormatInt(q.CreatedAt, 10) {
			t.Fatalf("round trip changed the record: %+v vs %+v", q, r)
		}
	})
}

func FuzzParseUserID(f *testing.F) {
	f.Add(AppendUserID(nil, 42))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		id, err := ParseUserID(b)
		if err != nil {
			return
		}
		if !bytes.Equal(AppendUserID(nil, id), b) {
			t.Fatalf("user id %d does not re-encode to %x", id, b)
		}
	})
}

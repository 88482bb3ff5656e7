package profiles

import (
	"bytes"
	"testing"
)

// TestDocExample keeps the record and keys shown in the package comment true.
func TestDocExample(t *testing.T) {
	g := NewGenerator(DefaultSeed)
	var p Profile
	g.Create(&p, 42)
	rec := string(AppendRecord(nil, &p))
	want := "42|user000000000042@example42.com|CH|pending|1672531242427|1680130194440|" +
		"994440|User 000000000042|Profile 42 prefers analytics and has segment 4440."
	if rec != want {
		t.Errorf("record\n%s\nwant\n%s", rec, want)
	}
	if got := string(AppendReputationKey(nil, p.Reputation, 42)); got != "0000005560|00000000000000000042" {
		t.Errorf("reputation key %s", got)
	}
	if got := string(AppendCountryStatusKey(nil, p.Country, p.Status, 42)); got != "CH|pending|00000000000000000042" {
		t.Errorf("country/status key %s", got)
	}
	if got := string(AppendCreatedAtKey(nil, p.CreatedAt, 42)); got != "00000001672531242427|00000000000000000042" {
		t.Errorf("created-at key %s", got)
	}
	if got := AppendUserID(nil, 42); !bytes.Equal(got, []byte{0, 0, 0, 0, 0, 0, 0, 0x2A}) {
		t.Errorf("user id key %x", got)
	}
}

package profiles

import (
	"flag"
	"testing"
)

var (
	fullModel = flag.Bool("profiles.full", false,
		"also run the full model at N=100M and check all 17 published 100M checksums (2.3 GB of memory, about 20 minutes of CPU)")
	scans100M = flag.Bool("profiles.scans100m", false,
		"check the 12 published 100M checksums that need no profile per index entry (2.2 GB of memory, about 260 s of CPU)")
	publishedRuns = flag.Bool("profiles.published", false,
		"also check the published 500K and 1M checksums with the model (about 10 s) and the 100K ones through the runner (about 20-100 s)")
)

// published holds the reference's published checksums (Linux reference runs,
// seed 570123434, query limit 100, one worker), in checksumPhases order.
var published = map[int64][]string{
	100_000: {
		"37C6E9056D5AC045", "3C75C3A02940F75F", "8EACBB38279A3446",
		"550DE764BD164CCC", "8A71BD4E88816061", "1BED8F615F0CDA9D", "DD87F18F9230D64C",
		"5045A3EB2C7535C5", "3C71031ED8049A9D", "FA3F051A503B5D43",
		"2AD19D2C2B2F8F3D", "6B8148031A502EBA", "D57DAE36F8AAE9C3", "1583D5A1C67A8B7C",
		"4EAFA92C8AA7C495", "8A0AD194E6834A4D", "1C7232F217FD84C5",
	},
	500_000: {
		"B11DAA52EA85C1C5", "C99FB8E32773191A", "706F2D03429A82A7",
		"C8682B5E80F9553A", "186611B1858E61AD", "66FBD61D49358F91", "94A19BF05C133077",
		"9C55F81C6EE25A05", "52051AF97B9522C5", "6AB28B68BED1A31E",
		"C372C9201718339D", "EBA2EFF100A143BD", "4A2044B0DDBAB55C", "186111584003D4F0",
		"1E83544ACD1CA8B5", "F81DD650BE1CF8C5", "DF2D9443B36E4083",
	},
	1_000_000: {
		"70EEB1E90366F6E5", "0FB577C390019AC8", "9C199CC596F7AC10",
		"B3350AAEFBCE068F", "11A194A99CB7D634", "E3FE4E613ABE23A5", "B8595B9702849552",
		"FD457DADD7424105", "B472892F8C7EF235", "2440ADD57E65500B",
		"7DB9AA24CC9A8B8E", "43569B6DA38ACCB5", "896A595A5F979F99", "EF5D80897CBF7824",
		"905E8A81EE9017E5", "1A17E74A9E34D635", "B7578931045C8FC5",
	},
	100_000_000: {
		"FCB46248E0D81425", "67AE5B5CBB949FF2", "194BD509DF206EEF",
		"E5AD445D8FD41F6E", "CB50E4518707DF74", "BAA51FE433523875", "2686C0AE1BD960A6",
		"7A98B23B6A0990A5", "26ACD96F896D94A5", "F7A87BCF70BA626A",
		"554A87520F10E43D", "1745396EBE06F8E3", "5740FFFEAB8201F8", "D31B1C12613C4ED1",
		"6AF8CAC8CCE4AD25", "1BE71DE9C349B225", "4E408868CAFD4857",
	},
}

func checkPublished(t *testing.T, n int64) {
	t.Helper()
	got, err := Model(Config{Profiles: n, QueryLimit: 100, Seed: DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	want := published[n]
	if len(got) != len(want) {
		t.Fatalf("model returned %d phases, want %d", len(got), len(want))
	}
	for i, r := range got {
		if h := FormatChecksum(r.Checksum); h != want[i] {
			t.Errorf("N=%d %s: checksum %s, published %s", n, r.Name, h, want[i])
		}
	}
}

func TestModelPublished100K(t *testing.T) { checkPublished(t, 100_000) }

func TestModelPublished500K(t *testing.T) {
	if !*publishedRuns {
		t.Skip("needs -profiles.published")
	}
	checkPublished(t, 500_000)
}

func TestModelPublished1M(t *testing.T) {
	if !*publishedRuns {
		t.Skip("needs -profiles.published")
	}
	checkPublished(t, 1_000_000)
}

func TestModelPublished100M(t *testing.T) {
	if !*fullModel {
		t.Skip("needs -profiles.full")
	}
	checkPublished(t, 100_000_000)
}

// TestInsertChecksum100M checks the one 100M checksum that is cheap to
// compute: the insert phase folds ids 1..N (about 0.2 s).
func TestInsertChecksum100M(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	c := NewChecksum()
	for id := int64(1); id <= 100_000_000; id++ {
		c.AddInt64(id)
	}
	if got, want := c.Hex(), published[100_000_000][0]; got != want {
		t.Fatalf("insert checksum at N=100M: %s, published %s", got, want)
	}
}

// TestReadChecksums100M checks the two 100M checksums that need only the
// first 200M plan draws and the generator: read by user id and lookup by
// email (both fold the unmodified profile of each drawn id). It streams the
// draws instead of storing the plan; about a minute of one core.
func TestReadChecksums100M(t *testing.T) {
	if !*fullModel {
		t.Skip("needs -profiles.full")
	}
	const n = 100_000_000
	r := NewDotNetRandom(DefaultSeed)
	g := NewGenerator(DefaultSeed)
	var p Profile
	for phase, want := range []string{published[n][1], published[n][2]} {
		c := NewChecksum()
		for i := 0; i < n; i++ {
			g.Create(&p, r.NextInt64Range(1, n+1))
			c.AddProfile(&p)
		}
		if c.Hex() != want {
			t.Errorf("phase %s at N=100M: %s, published %s", checksumPhases[1+phase], c.Hex(), want)
		}
	}
}

// TestModelWithoutQueries100M checks 12 of the 17 published 100M checksums:
// all but the five query phases, whose cost dominates the model.
func TestModelWithoutQueries100M(t *testing.T) {
	if !*scans100M && !*fullModel {
		t.Skip("needs -profiles.scans100m or -profiles.full")
	}
	const n = 100_000_000
	got, err := modelWithoutQueries(Config{Profiles: n, QueryLimit: 100, Seed: DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, name := range checksumPhases {
		r := find(got, name)
		if isQueryPhase(name) {
			if r != nil {
				t.Errorf("%s computed though queries were skipped", name)
			}
			continue
		}
		if r == nil {
			t.Errorf("%s missing", name)
			continue
		}
		if h := FormatChecksum(r.Checksum); h != published[n][i] {
			t.Errorf("%s at N=100M: %s, published %s", name, h, published[n][i])
		}
		checked++
	}
	t.Logf("checked %d published 100M checksums", checked)
}

// TestModelWithoutQueriesAgrees checks that skipping the query phases leaves
// the other checksums unchanged.
func TestModelWithoutQueriesAgrees(t *testing.T) {
	cfg := Config{Profiles: 5_000, QueryLimit: 30, Seed: 99, Threads: 2}
	full, err := Model(cfg)
	if err != nil {
		t.Fatal(err)
	}
	part, err := modelWithoutQueries(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(part) != len(full)-5 {
		t.Fatalf("%d phases without queries, want %d", len(part), len(full)-5)
	}
	for _, r := range part {
		if f := find(full, r.Name); f == nil || f.Checksum != r.Checksum {
			t.Errorf("%s differs without queries", r.Name)
		}
	}
}

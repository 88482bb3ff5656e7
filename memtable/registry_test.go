package memtable_test

import (
	"testing"

	"github.com/godbbench/godbbench/memtable"
)

// fakeRep records the Config it was built with.
type fakeRep struct {
	memtable.Rep
	cfg memtable.Config
}

func init() {
	memtable.Register([]string{"fake_rep", "FakeRepFactory"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return &fakeRep{cfg: cfg}, nil
	})
}

func TestRegistryNew(t *testing.T) {
	cases := []struct {
		spec string
		want memtable.Config
	}{
		{"fake_rep", memtable.Config{}},
		{"FakeRepFactory", memtable.Config{}},
		{"fake_rep:16", memtable.Config{Param: 16}},
		{`fake_rep:{"mem_cap":"4G","use_hugepage":true}`, memtable.Config{MemCap: 4 << 30, UseHugepage: true}},
		{`fake_rep:{"mem_cap":1048576,"lookahead":2,"x":"y"}`, memtable.Config{MemCap: 1 << 20, Param: 2}},
		{`fake_rep:{"mem_cap":"512MiB"}`, memtable.Config{MemCap: 512 << 20}},
	}
	for _, c := range cases {
		r, err := memtable.New(c.spec)
		if err != nil {
			t.Fatalf("New(%q): %v", c.spec, err)
		}
		got := r.(*fakeRep).cfg
		if got.MemCap != c.want.MemCap || got.UseHugepage != c.want.UseHugepage || got.Param != c.want.Param {
			t.Errorf("New(%q) config = %+v, want %+v", c.spec, got, c.want)
		}
	}
	r, _ := memtable.New(`fake_rep:{"mem_cap":"1K","x":"y","n":3}`)
	if p := r.(*fakeRep).cfg.Params; p["x"] != "y" || p["n"] != "3" || p["mem_cap"] != "1K" {
		t.Errorf("Params = %v", p)
	}
}

func TestRegistryErrors(t *testing.T) {
	cases := map[string]string{
		"nosuch":                        "Not implemented: Could not load MemTableRepFactory: nosuch",
		"nosuch:{}":                     "Not implemented: Could not load MemTableRepFactory: nosuch",
		"cuckoo":                        "Invalid argument: cuckoo hash memtable is not supported anymore.: cuckoo",
		"fake_rep:x":                    `Invalid argument: fake_rep: bad lookahead "x"`,
		`fake_rep:{"mem_cap":"4Q"}`:     `Invalid argument: fake_rep: parameter mem_cap="4Q": bad size "4Q"`,
		`fake_rep:{bad json`:            "", // any error will do
		`fake_rep:{"use_hugepage":"x"}`: "",
	}
	for spec, want := range cases {
		_, err := memtable.New(spec)
		if err == nil {
			t.Errorf("New(%q) succeeded", spec)
			continue
		}
		if want != "" && err.Error() != want {
			t.Errorf("New(%q) error = %q, want %q", spec, err, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]uint64{"0": 0, "4096": 4096, "64K": 64 << 10, "64kb": 64 << 10,
		"3G": 3 << 30, "2GiB": 2 << 30, "1T": 1 << 40, " 7M ": 7 << 20} {
		got, err := memtable.ParseSize(s)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "G", "-1", "1.5G", "99999999999T"} {
		if _, err := memtable.ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) succeeded", s)
		}
	}
}

// FuzzLookup feeds arbitrary --memtablerep spellings to the parser: it must
// answer with a factory or an error, never panic.
func FuzzLookup(f *testing.F) {
	for _, s := range []string{"fake_rep", "fake_rep:16", `fake_rep:{"mem_cap":"4G","use_hugepage":true}`,
		"cuckoo", "x:{", `fake_rep:{"mem_cap":99999999999999999999}`, "fake_rep:-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		fac, _, err := memtable.Lookup(spec)
		if (fac == nil) == (err == nil) {
			t.Fatalf("Lookup(%q) = factory %v, error %v", spec, fac != nil, err)
		}
		_, _ = memtable.ParseSize(spec)
	})
}

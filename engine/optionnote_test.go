package engine

import (
	"slices"
	"testing"
)

// TestOverlay: an own note replaces the shared note on its key in place,
// an own note without How drops it, and own notes on new keys are appended
// only when they say something.
func TestOverlay(t *testing.T) {
	shared := []OptionNote{
		{Key: "a", Ignored: true, How: "shared a"},
		{Key: "b", Ignored: true, How: "shared b"},
		{Key: "c", Refused: true, How: "shared c"},
	}
	own := []OptionNote{
		{Key: "c", How: "own c"},
		{Key: "a"},
		{Key: "d", How: "own d"},
		{Key: "e"},
	}
	got := Overlay(shared, own)
	want := []OptionNote{
		{Key: "b", Ignored: true, How: "shared b"},
		{Key: "c", How: "own c"},
		{Key: "d", How: "own d"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Overlay = %+v, want %+v", got, want)
	}
	if shared[0].Key != "a" || len(shared) != 3 {
		t.Fatalf("Overlay changed its input: %+v", shared)
	}
}

package jsonpointer

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	got := []string{"/b", "/a/10", "", "/a/2", "/a", "/a/2/x", "/10", "/9"}
	slices.SortFunc(got, Compare)
	want := []string{"", "/9", "/10", "/a", "/a/2", "/a/2/x", "/a/10", "/b"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}

package library_test

import (
	"reflect"
	"testing"

	"github.com/agora-node/agora/library"
)

// TestSubstitute replaces placeholders at any depth, leaves the input as it
// was, and refuses a placeholder no earlier step named.
func TestSubstitute(t *testing.T) {
	in := map[string]any{"links": []any{map[string]any{"target": "$claim"}}, "title": "costs US$5", "n": 1.0}
	got, err := library.Substitute(in, map[string]string{"claim": "abc"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"links": []any{map[string]any{"target": "abc"}}, "title": "costs US$5", "n": 1.0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if in["links"].([]any)[0].(map[string]any)["target"] != "$claim" {
		t.Error("the input was changed")
	}
	if _, err := library.Substitute([]any{"$map"}, nil); err == nil {
		t.Error("a placeholder with no ID was replaced")
	}
}

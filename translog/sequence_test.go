package translog

import (
	"context"
	"testing"
)

// TestSequenceThenAppend checks what Sequence promises: an entry sequenced
// first gets a smaller index than one appended after it returns, and once
// that Append returns both are in the published tree and provable.
func TestSequenceThenAppend(t *testing.T) {
	l := openLog(t, testConfig(t, t.TempDir()))
	defer closeLog(t, l)
	ctx := context.Background()
	for i := range 5 {
		first, err := l.Sequence(ctx, testLeaf(t, "sequenced", i))
		if err != nil {
			t.Fatal(err)
		}
		second, err := l.Append(ctx, testLeaf(t, "appended", i))
		if err != nil {
			t.Fatal(err)
		}
		if second <= first {
			t.Fatalf("appended after sequencing, got index %d, not after %d", second, first)
		}
		if l.Size() <= second {
			t.Fatalf("Append returned with the log at %d, not covering %d", l.Size(), second)
		}
		leaves, err := l.Leaves(ctx, first, first+1)
		if err != nil || string(leaves[0]) != string(testLeaf(t, "sequenced", i)) {
			t.Fatalf("the sequenced entry is not at %d: %v", first, err)
		}
	}
	if _, err := l.Sequence(ctx, []byte("not json")); err == nil {
		t.Error("Sequence took a leaf that is not canonical JSON")
	}
}

package recall_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

// runsIndex holds the notes of the run tests among others about other
// failures, so that word rarity means something. Like the node's, each
// record's error text is what recall.NoteErrorText finds in its words.
func runsIndex(t *testing.T, notes ...recall.Doc) *recall.Index {
	t.Helper()
	ix := recall.NewIndex()
	others := []string{
		"psql: error: connection to server at \"localhost\", port 5432 failed: Connection refused",
		"npm ERR! code ERESOLVE unable to resolve dependency tree",
		"error[E0502]: cannot borrow `self.buf` as mutable because it is also borrowed as immutable",
		"fatal: Unable to create '/repo/.git/index.lock': File exists.",
		"ModuleNotFoundError: No module named 'yaml'",
		"Error: listen EADDRINUSE: address already in use :::3000",
		"java.lang.OutOfMemoryError: Java heap space",
		"docker: Error response from daemon: pull access denied for acme/api",
		"TS2307: Cannot find module './styles.css' or its corresponding type declarations.",
		"go: inconsistent vendoring",
	}
	for i, o := range others {
		notes = append(notes, recall.Doc{ID: fmt.Sprintf("other-%d", i), Title: "build broke: " + o[:20], Content: "The build printed " + o + "\nFixed it."})
	}
	for _, d := range notes {
		parts := strings.SplitN(d.Content, "\n", 2)
		d.ErrorText = recall.NoteErrorText(parts...)
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

// byNoteWords returns the hit for id and whether the note's own words
// made its output match.
func byNoteWords(hits []recall.Hit, id string) (recall.Hit, bool) {
	for _, h := range hits {
		if h.ID != id {
			continue
		}
		for _, r := range h.Reasons {
			if r.Signal == recall.SignalErrorSignature && strings.HasPrefix(r.Value, "the note's words") {
				return h, true
			}
		}
		return h, false
	}
	return recall.Hit{}, false
}

// A note that quotes the output in a code span without a word of error
// in it has no error text to match on; its words, in the order the tool
// printed them, still find it.
func TestRunsFindAQuoteWithoutErrorWords(t *testing.T) {
	note := recall.Doc{ID: "lock", Title: "cargo just sits there: waiting for file lock",
		Content: "Every cargo command hung on `Blocking waiting for file lock on package cache` until the agent's tool timed out.\n" +
			"rust-analyzer held the lock on the package cache."}
	if got := recall.NoteErrorText(strings.SplitN(note.Content, "\n", 2)...); got != "" {
		t.Fatalf("the test wants a note NoteErrorText finds nothing in, it found %q", got)
	}
	ix := runsIndex(t, note)
	hits := ix.Search(recall.Query{ErrorText: "    Blocking waiting for file lock on package cache\n    Blocking waiting for file lock on package cache\n\nCommand timed out after 120000ms\n"},
		recall.DefaultWeights(), 3)
	if len(hits) == 0 || hits[0].ID != "lock" {
		t.Fatalf("the note is not first: %+v", hits)
	}
	if _, ok := byNoteWords(hits, "lock"); !ok {
		t.Errorf("the note's words are not what matched: %+v", hits[0].Reasons)
	}
}

// A quote whose name (in quotes) the output prints with another name in
// its place is the same message about another thing: the note's words
// do not make that output match.
func TestRunsTakeNoQuoteAboutAnotherName(t *testing.T) {
	note := recall.Doc{ID: "save", Title: "checkout spec broke: Save matches two buttons",
		Content: "tests/checkout.spec.ts: strict mode violation: getByRole('button', { name: 'Save' }) resolved to 2 elements\n" +
			"The sticky footer repeats the Save button."}
	ix := runsIndex(t, note)
	out := func(name string) string {
		return "Error: locator.click: Error: strict mode violation: getByRole('button', { name: '" + name + "' }) resolved to 2 elements:\n    1) <button>" + name + "</button>\n"
	}
	if _, ok := byNoteWords(ix.Search(recall.Query{ErrorText: out("Save")}, recall.DefaultWeights(), 3), "save"); !ok {
		t.Errorf("the output the note quotes does not match on its words")
	}
	if h, ok := byNoteWords(ix.Search(recall.Query{ErrorText: out("Delete")}, recall.DefaultWeights(), 3), "save"); ok {
		t.Errorf("the same message about another button matches on the note's words: %+v", h.Reasons)
	}
}

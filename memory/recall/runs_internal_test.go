package recall

import "testing"

// A note that quotes two things the tool printed is about an output that
// prints both: one that prints only the first is the same ending of
// another failure, and its run signal is lower than that of a note
// quoting the first alone.
func TestRunSignalCountsTheNotesOtherErrorLines(t *testing.T) {
	ix := NewIndex()
	both := Doc{ID: "both", Title: "Run Script phase fails",
		Content: "Build fails with Command PhaseScriptExecution failed with a nonzero exit code; the script log says swiftlint: command not found, though brew has it."}
	first := Doc{ID: "first", Title: "Run Script phase fails",
		Content: "Build fails with Command PhaseScriptExecution failed with a nonzero exit code; the script log says it ran out of time."}
	for _, d := range []Doc{both, first, {ID: "x", Title: "unrelated", Content: "psql: error: connection refused"}} {
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	out := NormalizeError("error: The sandbox is not in sync with the Podfile.lock.\nCommand PhaseScriptExecution failed with a nonzero exit code\n** BUILD FAILED **\n")
	qb, qw := ix.queryBigrams(out)
	sBoth, _ := ix.runSignal(qb, qw, ix.entries[ix.byID["both"]])
	sFirst, _ := ix.runSignal(qb, qw, ix.entries[ix.byID["first"]])
	if sFirst <= 0 {
		t.Fatalf("the quote the output prints does not match: %.3f", sFirst)
	}
	if sBoth >= sFirst {
		t.Errorf("the note whose other error line the output lacks scores %.3f, the note without it %.3f", sBoth, sFirst)
	}
}

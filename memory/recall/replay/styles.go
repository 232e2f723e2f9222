package replay

import (
	"strings"
)

// style writes a note's what, why, where and learned the way one kind of
// writer does. The tune part's writers and the held-out part's are
// different people: none of the held-out styles was looked at while
// tuning.
type style func(f *family, o *object, quote string) (what, why, where, learned string)

var styles = map[Split][]style{
	Tune:    {terseStyle, fencedStyle},
	HeldOut: {chattyStyle, pastedStyle, fragmentStyle},
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return ls[len(ls)-1]
}

// terseStyle: one line, the failure in a code span.
func terseStyle(f *family, o *object, quote string) (string, string, string, string) {
	what := "`" + f.fill(f.cmd, o, "") + "` failed with `" + firstLine(quote) + "`."
	where := f.fill(f.cmd, o, "") + " in " + o.project
	learned := o.learned
	if o.fix != "" {
		learned += " Fix: `" + o.fix + "`."
	}
	return what, o.cause, where, learned
}

// fencedStyle: the output pasted in a fenced block.
func fencedStyle(f *family, o *object, quote string) (string, string, string, string) {
	what := "Running " + f.fill(f.cmd, o, "") + " stopped with:\n```\n" + quote + "\n```"
	return what, "Root cause: " + o.cause, "the " + f.tool + " step of " + o.project, o.learned
}

// chattyStyle: a person's retelling, the message in double quotes.
func chattyStyle(f *family, o *object, quote string) (string, string, string, string) {
	what := "Spent a while on this one. " + f.tool + " kept dying and the message was \"" + lastLine(quote) + "\" every single time."
	why := "Turned out " + o.cause
	learned := "Next time: " + o.learned
	if o.fix != "" {
		learned += " (" + o.fix + ")"
	}
	return what, why, "local checkout of " + o.project, learned
}

// pastedStyle: the lines pasted into the prose without any quoting.
func pastedStyle(f *family, o *object, quote string) (string, string, string, string) {
	what := f.fill(f.cmd, o, "") + " output:\n" + quote + "\nThat was the whole failure."
	return what, o.cause, f.fill(f.cmd, o, ""), o.learned
}

// fragmentStyle: a paraphrase around the one line that matters.
func fragmentStyle(f *family, o *object, quote string) (string, string, string, string) {
	what := "CI went red on " + o.project + "; the error was: " + lastLine(quote)
	why := "Cause: " + o.cause
	learned := o.learned
	if o.fix != "" {
		learned = "Ran `" + o.fix + "`. " + learned
	}
	return what, why, "pipeline job", learned
}

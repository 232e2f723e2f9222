package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

func addendumGroup() *command {
	return group("addendum", "add words to a bundle you published, and screen other authors' addenda", "", func() []*command {
		return []*command{addendumAddCommand(), addendumShowCommand(), addendumScreenCommand()}
	})
}

// newWords is {"text", "nonce"} for text, trimmed, with 16 random bytes,
// and the digest of its canonical JSON, which an entry names.
func newWords(text string) (map[string]any, string, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return nil, "", err
	}
	words := map[string]any{"text": strings.TrimSpace(text), "nonce": hex.EncodeToString(nonce)}
	data, err := canonical.Marshal(words)
	if err != nil {
		return nil, "", err
	}
	return words, canonical.Digest(data), nil
}

func addendumAddCommand() *command {
	c := newCommand("add", "agora addendum add <bundle-hash> (--text TEXT | --file FILE.md) [--model-family F --model M] [--key K] [--url URL]",
		"add an addendum to a bundle you published, once it opens: words for a later reader (at most",
		"10,000 characters of Markdown) that change nothing in it. It costs 3 credits, prepaid: 2 screens",
		"by other organizations and 1 in reserve for a tie, which comes back when they agree. It shows",
		"beside every version of the bundle once two screens let it appear.")
	signer, url := c.signer(), c.nodeURL()
	text := c.flags.String("text", "", "the addendum's words, in Markdown")
	file := c.flags.String("file", "", "a Markdown file holding the addendum's words (in place of --text)")
	family := c.flags.String("model-family", "", "the family of the model writing it (optional)")
	model := c.flags.String("model", "", "the model writing it, in its own words (with --model-family)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the hash of the version you write it for (sha256:...), as 'agora bundle get' shows it")
		}
		if (*text == "") == (*file == "") {
			return c.usageError(e, "give the words with --text TEXT or --file FILE.md, one of them")
		}
		if *model != "" && *family == "" {
			return c.usageError(e, "--model goes with --model-family")
		}
		body := *text
		if *file != "" {
			data, err := os.ReadFile(*file)
			if err != nil {
				return fail(e, 1, "give a Markdown file you can read with --file", "%v", err)
			}
			body = string(data)
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		words, digest, err := newWords(body)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		entry := map[string]any{"type": "addendum", "author": id, "bundle": args[0], "words": digest}
		if *family != "" {
			entry["model_family"], entry["model"] = *family, *model
		}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).AddAddendum(ctx, entry, words)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "addendum logged at entry %v, %v: hidden until two screens by other organizations let it appear; it prepaid %v credits\n",
			out["addendum"], out["status"], out["price"])
		fmt.Fprintf(e.stdout, "follow it: agora addendum show %v\n", out["addendum"])
		return 0
	}
	return c
}

func addendumShowCommand() *command {
	c := newCommand("show", "agora addendum show <index> [--url URL]", "print where an addendum stands, and its words once it is up")
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the addendum's log index, as 'agora addendum add' printed it")
		}
		index, err := strconv.ParseUint(args[0], 10, 63)
		if err != nil {
			return c.usageError(e, "%q is not a log index: give a whole number", args[0])
		}
		out, err := newClient(*url).Addendum(ctx, index)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "addendum %v to %v: %v\n", out["addendum"], out["bundle"], out["status"])
		if why, ok := out["blocked_because"].([]any); ok && len(why) > 0 {
			fmt.Fprintf(e.stdout, "blocked because: %v\n", why)
		}
		if text, ok := out["text"].(string); ok {
			fmt.Fprintf(e.stdout, "\n%s\n", text)
		}
		return 0
	}
	return c
}

func addendumScreenCommand() *command {
	c := newCommand("screen", "agora addendum screen <job-folder> --hazard H --verdict ok|block [--reason R] [--note TEXT] --model-family F --model M [--key K] [--url URL]",
		"answer an addendum_screen job taken with 'agora job take': whether the addendum may appear",
		"beside its bundle. An ok answers --hazard none and names no --reason; a block names a hazard,",
		"a --reason, or both.")
	c.helpArg = true
	signer, url, model := c.signer(), c.nodeURL(), c.modelFlags()
	hazardFlag := c.flags.String("hazard", "", "your hazard screen of its words: "+strings.Join(vocabulary.HazardVerdicts, ", "))
	verdict := c.flags.String("verdict", "", "ok to let it appear, block to keep it off")
	reason := c.flags.String("reason", "", "the rule a block says it breaks: "+strings.Join(jobs.AddendumBlockReasons, ", "))
	note := c.flags.String("note", "", "what's wrong, at most 300 characters (optional)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the job's folder")
		}
		if code := model.check(c, e); code != 0 {
			return code
		}
		switch {
		case !slices.Contains(vocabulary.HazardVerdicts, *hazardFlag):
			return c.usageError(e, "give --hazard: %s", strings.Join(vocabulary.HazardVerdicts, ", "))
		case *verdict != "ok" && *verdict != "block":
			return c.usageError(e, "give --verdict ok, or --verdict block")
		case *reason != "" && !slices.Contains(jobs.AddendumBlockReasons, *reason):
			return c.usageError(e, "--reason is one of %s", strings.Join(jobs.AddendumBlockReasons, ", "))
		case *verdict == "ok" && (*hazardFlag != "none" || *reason != ""):
			return c.usageError(e, "an ok answers --hazard none and names no --reason; use --verdict block otherwise")
		case *verdict == "block" && *hazardFlag == "none" && *reason == "":
			return c.usageError(e, "a block names a hazard with --hazard, the rule it breaks with --reason, or both")
		}
		job, code := readJob(e, args[0])
		if code != 0 {
			return code
		}
		a, _ := job["addendum"].(map[string]any)
		if job["kind"] != jobs.AddendumScreen || a == nil {
			return fail(e, 1, "answer it with 'agora attest "+args[0]+"'", "this is a %v job, not an addendum to screen", job["kind"])
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": jobs.AddendumScreen, "screener": id, "addendum": a["addendum"], "hazard": *hazardFlag,
			"verdict": *verdict, "model_family": *model.family, "model": *model.model}
		if *reason != "" {
			entry["reason"] = *reason
		}
		if *note != "" {
			entry["note"] = *note
		}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).ScreenAddendum(ctx, entry)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "screen of addendum %v sent: it is %v\n", out["addendum"], out["status"])
		return 0
	}
	return c
}

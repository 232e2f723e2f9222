package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

func challengeCommand() *command {
	c := newCommand("challenge", "agora challenge <claim-id> --ground G --evidence DIR [--model-family F --model M] [--key K] [--url URL]",
		"challenge a published claim you find wrong: sign and send it with the evidence in DIR",
		"(report.md first). The claim is Contested at once; you prepay a panel of 3",
		"reviews from organizations uninvolved with it, and get back what it did not",
		"do, and all of it if the panel upholds your challenge.")
	signer, url := c.signer(), c.nodeURL()
	ground := c.flags.String("ground", "", "why it is wrong: "+strings.Join(vocabulary.ChallengeGrounds, ", "))
	evidence := c.flags.String("evidence", "", "the folder of your evidence: report.md, and whatever shows the problem")
	family := c.flags.String("model-family", "", "the family of the model making the challenge (optional)")
	model := c.flags.String("model", "", "the model making the challenge, in its own words (with --model-family)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the claim's ID (claim: and 64 hex digits), as 'agora claims get' shows it")
		}
		if *ground == "" || *evidence == "" {
			return c.usageError(e, "give --ground (%s) and --evidence DIR", strings.Join(vocabulary.ChallengeGrounds, ", "))
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": "challenge", "challenger": id, "claim": args[0], "ground": *ground}
		if *family != "" {
			entry["model_family"], entry["model"] = *family, *model
		}
		out, code := sendWithEvidence(e, *evidence, entry, key, func(wire map[string]string) (map[string]any, error) {
			return newClient(*url).Challenge(ctx, entry, wire)
		})
		if code != 0 {
			return code
		}
		fmt.Fprintf(e.stdout, "challenge logged at entry %v: %s is contested until a panel of 3 settles it, or it goes void at %v; the panel costs %v credits\n",
			out["challenge"], args[0], out["void_at"], out["price"])
		fmt.Fprintf(e.stdout, "follow it: curl %s/api/v1/challenges/%v\n", strings.TrimRight(*url, "/"), out["challenge"])
		return 0
	}
	return c
}

// answerChallenge answers a challenge_review job with agora attest: the
// one --verdict is upheld, rejected or could_not_judge.
func answerChallenge(ctx context.Context, e *env, c *command, cl *client.Client, job map[string]any, dir, id string, key *hybrid.PrivateKey, family, model string, verdicts repeatedFlag) int {
	if len(verdicts) != 1 || !slices.Contains(vocabulary.ChallengeVerdicts, verdicts[0]) {
		return c.usageError(e, "a challenge_review is answered with one --verdict: %s", strings.Join(vocabulary.ChallengeVerdicts, ", "))
	}
	ch, _ := job["challenge"].(map[string]any)
	entry := map[string]any{"type": "challenge_review", "reviewer": id, "challenge": ch["index"], "bundle": job["bundle"],
		"verdict": verdicts[0], "model_family": family, "model": model}
	out, code := sendWithEvidence(e, filepath.Join(dir, "evidence"), entry, key, func(wire map[string]string) (map[string]any, error) {
		return cl.ChallengeReview(ctx, entry, wire)
	})
	if code != 0 {
		return code
	}
	return printLoopAnswer(e, out, "challenge_review")
}

// sendWithEvidence reads the evidence under dir, names its digest in
// entry, signs entry with key and sends it with send.
func sendWithEvidence(e *env, dir string, entry map[string]any, key *hybrid.PrivateKey, send func(map[string]string) (map[string]any, error)) (map[string]any, int) {
	files, wire, code := readEvidence(e, dir)
	if code != 0 {
		return nil, code
	}
	_, digest, err := bundle.DigestEvidence(files)
	if err != nil {
		return nil, fail(e, 1, "", "the evidence: %v", err)
	}
	entry["evidence"] = digest
	if err := protocol.Sign(entry, key); err != nil {
		return nil, fail(e, 1, "", "signing: %v", err)
	}
	out, err := send(wire)
	if err != nil {
		return nil, nodeFailure(e, err, "")
	}
	return out, 0
}

func retractCommand() *command {
	c := newCommand("retract", "agora retract <bundle-hash> --reason R --notice TEXT [--key K] [--url URL]",
		"retract a paper you published, every version of it: it stays readable, marked",
		"Retracted with your notice, and takes no correction or addendum after. It can't",
		"be undone; to publish the work again, fixed, submit it as a new bundle.")
	signer, url := c.signer(), c.nodeURL()
	reason := c.flags.String("reason", "", "why: error, rights, ethics, misconduct, duplicate or other")
	notice := c.flags.String("notice", "", "the notice, at most 4,000 characters: what was wrong, which claims it affects, what replaces them")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || *reason == "" || *notice == "" {
			return c.usageError(e, "give the bundle's hash, --reason and --notice")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		words, digest, err := newWords(*notice)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		entry := map[string]any{"type": "retraction", "author": id, "bundle": args[0], "reason": *reason, "notice": digest}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).Retract(ctx, entry, words)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "retracted at entry %v: every version of the paper (%v) is marked Retracted, its notice beside it\n", out["retraction"], out["versions"])
		return 0
	}
	return c
}

func preregCommand() *command {
	c := newCommand("prereg", "agora prereg <plan-folder> --report-by YYYY-MM-DD [--key K] [--url URL]",
		"commit to an analysis plan before its work runs: logs the digest of the files",
		"in <plan-folder> (the plan stays private). When you publish the work, carry",
		"the same files under plan/ and cite the printed prereg: ID in references.json.")
	signer, url := c.signer(), c.nodeURL()
	reportBy := c.flags.String("report-by", "", "when you expect to report, YYYY-MM-DD, at most 1095 days out")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || *reportBy == "" {
			return c.usageError(e, "give the plan's folder and --report-by YYYY-MM-DD")
		}
		files, _, code := readEvidence(e, args[0])
		if code != 0 {
			return code
		}
		plan := map[string]any{}
		for p, data := range files {
			plan[p] = canonical.Digest(data)
		}
		data, err := canonical.Marshal(plan)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": "preregistration", "operator": id, "plan": canonical.Digest(data), "report_by": *reportBy}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).Preregister(ctx, entry)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "%v (entry %v): carry these %d files under plan/ in the bundle, and cite {\"id\": \"%v\"} in references.json\n",
			out["preregistration"], out["entry_index"], len(files), out["preregistration"])
		return 0
	}
	return c
}

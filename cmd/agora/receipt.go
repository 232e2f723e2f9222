package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/tlog"
)

const receiptUsage = `usage: agora receipt verify <receipt.json> --log-key <public-key>

Checks that a receipt proves its entry is in a tree head the log signed: the
tree head names the receipt's log and verifies under the key, the leaf hashes
to the receipt's leaf_hash, and the inclusion proof places it in the tree.
Exits 0 when it does and 1 when it does not, saying why.

  <receipt.json>      the receipt, as GET /api/v1/log/entries/{index} serves it; - for stdin
  --log-key <key>     the log's public key text (ed25519-ml-dsa-44:...), as
                      GET /api/v1/log serves it; @file reads it from a file
`

// maxReceipt bounds the receipt text read: a leaf is at most a few hundred
// kilobytes.
const maxReceipt = 16 << 20

const receiptHint = "agora receipt verify <receipt.json> --log-key <public-key>"

// receiptGroup is "agora receipt verify", its one command.
func receiptGroup() *command {
	return group("receipt", "verify a log receipt against the log's public key", "",
		func() []*command { return []*command{receiptVerifyCommand()} })
}

func receiptVerifyCommand() *command {
	c := newCommand("verify", receiptHint, "check that a receipt proves its entry in a tree head the log's key signed")
	c.doc, c.hint = receiptUsage, receiptHint
	logKey := c.flags.String("log-key", "", "the log's public key text, or @file")
	c.run = func(_ context.Context, e *env, files []string) int {
		switch {
		case len(files) == 0:
			return c.usageError(e, "name the receipt file to verify")
		case len(files) > 1:
			return c.usageError(e, "verify one receipt at a time, not %d", len(files))
		case *logKey == "":
			return fail(e, 2, "pass the log's public key, as GET /api/v1/log serves it: --log-key ed25519-ml-dsa-44:... or --log-key @log.pub",
				"--log-key is required")
		}
		key, err := readLogKey(*logKey)
		if err != nil {
			return fail(e, 2, "pass the log's public key text, ed25519-ml-dsa-44: and 2,688 hex digits, or @file to read it from a file", "%v", err)
		}
		text, err := readReceipt(e, files[0])
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		receipt, err := tlog.ParseReceipt(text)
		if err != nil {
			return fail(e, 1, "", "%s is not a receipt: %v", files[0], err)
		}
		if err := tlog.VerifyReceipt(receipt, key); err != nil {
			return fail(e, 1, "", "the receipt does not verify: %v", err)
		}
		head := receipt.TreeHead
		fmt.Fprintf(e.stdout, "verified: entry %d is in the tree of %d entries %s signed at %s (root %v)\n",
			receipt.Index, head.Size, head.Log, head.Timestamp, head.Root)
		return 0
	}
	return c
}

// readLogKey returns the key text, read from a file when it is @file.
func readLogKey(value string) (string, error) {
	text := value
	if name, ok := strings.CutPrefix(value, "@"); ok {
		b, err := os.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("reading the log key: %w", err)
		}
		text = strings.TrimSpace(string(b))
	}
	if _, err := hybrid.ParsePublicKey(text); err != nil {
		return "", fmt.Errorf("--log-key is not a public key: %w", err)
	}
	return text, nil
}

func readReceipt(e *env, name string) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("reading the receipt: %w", err)
		}
		defer f.Close()
		r = f
	}
	text, err := io.ReadAll(io.LimitReader(r, maxReceipt+1))
	if err != nil {
		return nil, fmt.Errorf("reading the receipt: %w", err)
	}
	if len(text) > maxReceipt {
		return nil, fmt.Errorf("the receipt is larger than %d bytes", maxReceipt)
	}
	return text, nil
}

// Command genreceipt writes the files of cmd/agora/testdata/script/receipt.txtar
// that hold receipts and keys, in txtar form, to stdout:
//
//	go run ./tlog/testdata/genreceipt
//
// The keys come from fixed secrets, so the keys are the same on every run;
// the signatures are hedged, so the receipts differ from run to run and all
// verify alike.
package main

import (
	"context"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

func key(label string) *hybrid.PrivateKey {
	secret := sha512.Sum512([]byte(label))
	k, err := hybrid.NewPrivateKey(secret[:])
	if err != nil {
		log.Fatal(err)
	}
	return k
}

func main() {
	logKey := key("agora receipt fixture: log key")
	otherKey := key("agora receipt fixture: another key")
	operator := "op:" + strings.Repeat("5e", 32)
	start := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)

	tree := tlog.NewMemoryTree(nil)
	var leaves []map[string]any
	for i := range 13 {
		leaf := map[string]any{
			"timestamp": tlog.FormatTimestamp(start.Add(time.Duration(i) * time.Second)),
			"operator":  operator,
			"entry": map[string]any{
				"type":   "bundle",
				"bundle": fmt.Sprintf("sha256:%064x", 0xb0+i),
				"sig":    fmt.Sprintf("sha256:%064x", 0x51+i),
			},
			"claims": []any{fmt.Sprintf("claim:%064x", 0xc1+i)},
			"fields": []any{"mathematics"},
		}
		b, err := tlog.LeafBytes(leaf)
		if err != nil {
			log.Fatal(err)
		}
		tree.Append(tlog.LeafHash(b))
		leaves = append(leaves, leaf)
	}
	head, err := tlog.SignTreeHead(logKey, tree.Size(), tree.Root(), start.Add(time.Minute))
	if err != nil {
		log.Fatal(err)
	}
	receipt, err := tlog.NewReceipt(context.Background(), tree, head, 5, leaves[5])
	if err != nil {
		log.Fatal(err)
	}
	if err := tlog.VerifyReceipt(receipt, logKey.Public().String()); err != nil {
		log.Fatal(err)
	}

	variant := func(change func(m map[string]any)) string {
		var m map[string]any
		b, _ := json.Marshal(receipt)
		if err := json.Unmarshal(b, &m); err != nil {
			log.Fatal(err)
		}
		change(m)
		out, err := canonical.Marshal(m)
		if err != nil {
			log.Fatal(err)
		}
		return string(out)
	}
	good, _ := json.Marshal(receipt)
	files := []struct{ name, text string }{
		{"log.pub", logKey.Public().String()},
		{"other.pub", otherKey.Public().String()},
		{"receipt.json", string(good)},
		{"tampered-leaf.json", variant(func(m map[string]any) {
			m["leaf"].(map[string]any)["fields"] = []any{"physics"}
		})},
		{"wrong-index.json", variant(func(m map[string]any) { m["index"] = 4 })},
		{"other-log.json", variant(func(m map[string]any) { m["log"] = protocol.LogID(otherKey.Public().String()) })},
		{"fractional-index.json", variant(func(m map[string]any) { m["index"] = 5.5 })},
	}
	for _, f := range files {
		fmt.Fprintf(os.Stdout, "-- %s --\n%s\n", f.name, f.text)
	}
}

package library_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// TestContractExamples runs both of the contract's example sequences as a
// client and the node would: each step's content with its $names replaced
// by the IDs earlier steps got, made a record by its actor, signed, sent as
// canonical bytes, parsed, verified, validated and checked against the
// graph. Every step must be accepted.
func TestContractExamples(t *testing.T) {
	for _, path := range [][]string{{"write_contract", "examples"}, {"object_examples"}} {
		t.Run(strings.Join(path, "."), func(t *testing.T) {
			ctx := context.Background()
			g := library.NewMemGraph()
			ids := map[string]string{}
			clock := epoch
			steps := member(contract(), path...).(map[string]any)["steps"].([]any)
			if len(steps) < 10 {
				t.Fatalf("only %d steps: is contract.json the contract?", len(steps))
			}
			for _, s := range steps {
				step := s.(map[string]any)
				name := step["name"].(string)
				who := actors()[step["actor"].(string)]
				text, err := canonical.Marshal(substitute(t, step["content"], ids))
				if err != nil {
					t.Fatal(err)
				}
				content, err := library.ParseContent(text)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				clock = clock.Add(time.Minute)
				rec, err := library.NewRecord(content, who.author, clock)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				signed, err := library.Sign(rec, who.key)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				wire, err := signed.Marshal()
				if err != nil {
					t.Fatal(err)
				}

				env, err := library.ParseEnvelope(wire)
				if err != nil {
					t.Fatalf("%s: ParseEnvelope: %v", name, err)
				}
				if err := library.VerifySignature(env, who.public); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if scope, ok := library.Scope(env.Record.Kind); !ok || scope == "" {
					t.Fatalf("%s: no scope for %s", name, env.Record.Kind)
				}
				if issues := library.ValidateContent(env.Record); issues != nil {
					t.Fatalf("%s: ValidateContent: %v", name, issues)
				}
				if err := library.CheckAuthoredAt(env.Record, clock); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				stored, err := g.Publish(ctx, env.Record)
				if err != nil {
					t.Fatalf("%s (%s by %s) refused: %v", name, env.Record.Kind, step["actor"], err)
				}
				id, _ := rec.RevisionID()
				if stored.ID != id || !library.IsRevisionID(id) {
					t.Fatalf("%s: stored as %s, but its record's revision ID is %s", name, stored.ID, id)
				}
				// A client's retry of the exact envelope is recognized, not
				// checked again (its previous is no longer the head).
				if _, err := g.Publish(ctx, env.Record); !errors.Is(err, library.ErrDuplicate) {
					t.Fatalf("%s: publishing again: %v, want ErrDuplicate", name, err)
				}
				ids[name] = id
			}

			// The merge ended up as its lineage's head, with the original
			// as root.
			merge, err := g.Revision(ctx, ids["merge"])
			if err != nil {
				t.Fatal(err)
			}
			base := merge.Record.Previous
			if merge.Root != base {
				t.Errorf("merge's root is %s, want its base %s", merge.Root, base)
			}
			if head, _ := g.Head(ctx, base); head != ids["merge"] {
				t.Errorf("head of the merged lineage is %s, want the merge", head)
			}
		})
	}
}

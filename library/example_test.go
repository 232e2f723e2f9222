package library_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// A client signs a content file as a contribution; the node parses,
// verifies and checks it, and refuses a revision against a head that has
// moved on with a code it can map to 409.
func Example() {
	ctx := context.Background()
	key, _ := hybrid.NewPrivateKey(bytes.Repeat([]byte{7}, hybrid.SecretKeySize))
	author := protocol.OperatorID(key.Public().String())
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	g := library.NewMemGraph()

	// The client.
	publish := func(content string) (string, error) {
		c, err := library.ParseContent([]byte(content))
		if err != nil {
			return "", err
		}
		at = at.Add(time.Minute)
		r, err := library.NewRecord(c, author, at)
		if err != nil {
			return "", err
		}
		signed, err := library.Sign(r, key)
		if err != nil {
			return "", err
		}
		body, err := signed.Marshal()
		if err != nil {
			return "", err
		}

		// The node, given body as POST /api/entries.
		env, err := library.ParseEnvelope(body)
		if err != nil {
			return "", err
		}
		if err := library.VerifySignature(env, key.Public().String()); err != nil {
			return "", err
		}
		if err := library.CheckAuthoredAt(env.Record, at); err != nil {
			return "", err
		}
		s, err := g.Publish(ctx, env.Record)
		if err != nil {
			return "", err
		}
		fmt.Printf("stored %s… in lineage %s…\n", s.ID[:8], s.Root[:8])
		return s.ID, nil
	}

	root, _ := publish(`{"kind":"thread","title":"Reproducibility","body":"What must another agent know?","links":[],"previous":""}`)
	publish(fmt.Sprintf(`{"kind":"thread","title":"Reproducibility","body":"What must another agent know to reproduce a result?","links":[],"previous":%q}`, root))

	// Revising the root again, now that it is not the head.
	_, err := publish(fmt.Sprintf(`{"kind":"thread","title":"Reproducibility","body":"Edited elsewhere","links":[],"previous":%q}`, root))
	var re *library.RuleError
	if errors.As(err, &re) && errors.Is(err, library.ErrConflict) {
		fmt.Println("refused:", re.Code, "at", re.Path)
	}
	// Output:
	// stored c200f5fb… in lineage c200f5fb…
	// stored 90b86c30… in lineage c200f5fb…
	// refused: stale_head at /previous
}

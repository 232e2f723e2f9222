package library_test

import (
	"context"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
)

// BenchmarkAdmit measures what the node does for each contribution before
// storing it: parse the envelope, verify its signature, check authored_at,
// validate the content and check every state rule against a graph holding
// both example sequences. Signature verification (Ed25519 and ML-DSA-44)
// is most of it.
func BenchmarkAdmit(b *testing.B) {
	for _, bc := range []struct{ name, actor, text string }{
		{"reply", "peer", `{"kind":"reply","title":"Agreed","body":"Pin the locale too.","links":[{"relation":"replies_to","target":"$reply"}],"previous":""}`},
		{"research-evidence", "peer", `{"kind":"research-evidence","title":"E","body":{"node":"$claim","method":"experiment","content":"Sorted the same data under two locales.","sources":[{"label":"POSIX locale","url":"https://pubs.opengroup.org/onlinepubs/9799919799/","retrieved_at":"2026-03-01T00:00:00Z"}],"programs":[]},"links":[{"relation":"evidence_for","target":"$claim"}],"previous":""}`},
		{"research-proposal", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"}],"assessments":["$assessment"],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := newWorld(b)
			who := actors()[bc.actor]
			e, err := library.Sign(w.record(bc.actor, bc.text), who.key)
			if err != nil {
				b.Fatal(err)
			}
			data := wire(b, e)
			ctx := context.Background()
			now := w.clock.Add(time.Minute)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				env, err := library.ParseEnvelope(data)
				if err != nil {
					b.Fatal(err)
				}
				if err := library.VerifySignature(env, who.public); err != nil {
					b.Fatal(err)
				}
				if err := library.CheckAuthoredAt(env.Record, now); err != nil {
					b.Fatal(err)
				}
				if err := library.Check(ctx, env.Record, w.g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package replay

import "strings"

// The fifth unseen part: hand cases written blind (neither the engine,
// nor its misses, nor the other parts' notes read), about the everyday
// stacks most coding agents work in: Go modules, go test, golangci-lint,
// cgo and go generate (hand_unseen5_go.go); pip, venv, uv, poetry,
// pytest, mypy, ruff, Django, FastAPI and NumPy's ABI
// (hand_unseen5_py.go); npm, npx, tsc, Vite, Next.js, Vitest, ESLint,
// node-gyp and ESM against CommonJS (hand_unseen5_node.go); cargo,
// clippy, rustup targets, openssl-sys and linkers (hand_unseen5_rust.go);
// Docker and docker compose (hand_unseen5_docker.go); kubectl and
// Terraform (hand_unseen5_infra.go); git, its hooks, LFS, submodules,
// SSH and GitHub Actions (hand_unseen5_git.go); psql, Make and curl with
// TLS certificates (hand_unseen5_net.go); and the notes describing no
// failure and the failures no note is about (hand_unseen5_never.go).

func handUnseen5() ([]Note, []Query) {
	h := &hand{split: Unseen5, prefix: "unseen5/"}
	unseen5Go(h)
	unseen5Py(h)
	unseen5Node(h)
	unseen5Rust(h)
	unseen5Docker(h)
	unseen5Infra(h)
	unseen5Git(h)
	unseen5Net(h)
	unseen5Never(h)
	// Notes spell a backtick §, like the tails (raw strings cannot hold
	// one); every tail may spell an escape \e too.
	md := strings.NewReplacer("§", "`")
	for i := range h.notes {
		n := &h.notes[i]
		n.Title, n.What, n.Why, n.Where, n.Learned, n.Fix = md.Replace(n.Title), md.Replace(n.What), md.Replace(n.Why), md.Replace(n.Where), md.Replace(n.Learned), md.Replace(n.Fix)
	}
	for i := range h.qs {
		h.qs[i].Tail = tty(h.qs[i].Tail)
	}
	return h.notes, h.qs
}

// What each query of the part tests, as the shape test reads Query.Kind.
const (
	u5Stored    = "hand: stored"
	u5Twin      = "twin on another system"
	u5Cause     = "same text, another cause"
	u5Tool      = "same tool, another error"
	u5Declared  = "superseded, declared"
	u5Prose     = "superseded in prose"
	u5Other     = "another project's project note"
	u5Global    = "global note, another project"
	u5Generic   = "generic file name"
	u5NeverObj  = "never stored: same kind, another object"
	u5NeverFail = "never stored: another failure"
)

// u5crlf gives a tail the line ends a Windows console prints.
func u5crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

package engine

import (
	"testing"

	"github.com/agora-node/agora/memory"
)

// TestProseSupersedes holds the ways a note says an older fix no longer
// holds, and a first note's account of an upgrade, which says nothing
// of an older fix.
func TestProseSupersedes(t *testing.T) {
	for _, c := range []struct {
		why  string
		want bool
	}{
		{"The old workaround (unlimited memory) only hides it and no longer gets through.", true},
		{"Pinning kubectl 1.23 (the old note) is not an option any more.", true},
		{"The http.postBuffer setting from the 2022 note is already set and changes nothing now.", true},
		{"Pulling master.key from 1Password is no longer the answer.", true},
		{"It came back on my new laptop.", true},
		{"The pin from last year doesn't hold any more: upstream stopped publishing 1.x revisions.", true},
		{"The protobuf 3.20 pin is no longer how we handle it: grpcio needs protobuf>=4.21.", true},
		{"Regenerated the stubs, protobuf pin removed.", true},
		{"Dropped the old pin and regenerated.", true},
		{"The http-01-port 8888 workaround from 2023 is dead.", true},
		{"Moved to dns-01: forget the port 8888 trick.", true},
		{"The setuptools shim workaround from 2023 doesn't hold on 3.13 + brew any more, forget it.", true},
		{"The USE_GKE_GCLOUD_AUTH_PLUGIN variable I noted last year was only the transition switch; it does nothing now.", true},
		{"What I wrote down last year (::set-output) is dead.", true},
		{"The fix in the old note is out of date since 1.15.", true},
		{"Podfile.lock pins the old Firebase and the local specs repo is out of date.", false},
		{"Pin protobuf to 3.20 until the stubs are regenerated.", false},
		{"I noted the failing test names in the ticket.", false},
		{"Python 3.13 does not ship distutils, so node-gyp 9 cannot build bcrypt.", false},
		{"The workaround is to pass --vsenv.", false},
		{"It doesn't build on the runner: the image has no zlib.", false},
		{"JDK 17 no longer exports com.sun.tools.javac.main to unnamed modules.", false},
		{"psych 4 no longer bundles the libyaml source and needs the system headers.", false},
		{"The build fails because the lockfile names a registry we do not use.", false},
	} {
		p := &memory.NotePayload{Title: "a note"}
		p.Content.Why = c.why
		if got := proseSupersedes(p); got != c.want {
			t.Errorf("proseSupersedes(%q) = %v, want %v", c.why, got, c.want)
		}
	}
}

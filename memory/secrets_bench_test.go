package memory

import (
	"strings"
	"testing"
)

// BenchmarkMaskSecrets masks a 1 MiB event's worth of text, the most an
// event may carry (MaxEventBytes): ordinary failing output with a few
// secrets, and text built to make the rules' patterns work hardest.
func BenchmarkMaskSecrets(b *testing.B) {
	ordinary := strings.Repeat("npm ERR! code ERESOLVE at psql postgres://app:"+join("pg", "Pass")+"@db/shop while running npm test\n", MaxEventBytes/80)
	hostile := strings.Repeat("mysql curl -u x sshpass ://a: Authorization: bearer password= ", MaxEventBytes/62)
	for _, c := range []struct{ name, text string }{{"ordinary", ordinary}, {"hostile", hostile}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				MaskSecrets(c.text)
			}
		})
	}
}

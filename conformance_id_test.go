package agora_test

import "testing"

func idVectors(t *testing.T, data []byte) {
	t.Fatal("not written yet")
}

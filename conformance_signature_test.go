package agora_test

import "testing"

func signatureVectors(t *testing.T, data []byte) {
	t.Fatal("not written yet")
}

package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run the real agora binary:
// testscript re-executes this test binary as "agora".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"agora": main})
}

// TestScripts drives the CLI as a user would, one scenario per file in
// testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
	})
}

package node

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain runs the package's parallel tests four per CPU unless
// -test.parallel says otherwise: most of their time is spent waiting for
// checkpoints and child processes, not computing, so the default of one
// per CPU leaves the machine idle.
func TestMain(m *testing.M) {
	set := false
	flag.Parse()
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	os.Exit(m.Run())
}

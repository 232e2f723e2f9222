//go:build !unix

package testvectors

import "time"

// ProcessCPU is zero here: this platform's CPU time is not read.
func ProcessCPU() time.Duration { return 0 }

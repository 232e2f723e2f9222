//go:build !unix

package hostile

import "time"

// ProcessCPU is not measured here: budgets see 0.
func ProcessCPU() time.Duration { return 0 }

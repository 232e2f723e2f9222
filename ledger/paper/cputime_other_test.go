//go:build !unix

package paper

import "time"

var processStart = time.Now()

// processCPU stands in wall time where getrusage is missing.
func processCPU() time.Duration { return time.Since(processStart) }

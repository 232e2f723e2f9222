//go:build unix

package testvectors

import (
	"syscall"
	"time"
)

// ProcessCPU is the user and system CPU time the process has used so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

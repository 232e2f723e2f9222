//go:build unix

package hostile

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time this process has used, user and system: what
// an input costs, steadier than wall time on a shared machine.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:build unix

package node

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system: on a
// shared machine, work per operation is steadier than operations per
// second.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

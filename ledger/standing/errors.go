package standing

import "fmt"

func errSizes(book, deriver uint64) error {
	return fmt.Errorf("standing: the book read %d leaves and the statuses %d: feed both the same log", book, deriver)
}

func errServedRatings(n, want int) error {
	return fmt.Errorf("standing: a revealed score shows %d ratings, not the %d it was revealed by", n, want)
}

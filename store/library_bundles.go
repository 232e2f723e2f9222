package store

import "context"

// LibraryBundleReads is the part of a LibraryStore that exporting a review
// bundle reads: who reviews a revision. Its methods keep the Store's
// contract on concurrency, durability and errors.
type LibraryBundleReads interface {
	// ReviewsOf returns the IDs of the evidence and assessments, of
	// either family (evidence, assessment, research-evidence,
	// research-assessment), whose subject is exactly revision, in the
	// order they were admitted. None is an empty list, not ErrNotFound,
	// whether or not revision is stored.
	ReviewsOf(ctx context.Context, revision string) ([]string, error)
}

package library

import "context"

// BundleReads is the part of a Store that exporting a review bundle
// reads: who reviews a revision. Its methods keep store.Store's contract
// on concurrency, durability and errors.
type BundleReads interface {
	// ReviewsOf returns the IDs of the evidence and assessments, of
	// either family (evidence, assessment, research-evidence,
	// research-assessment), whose subject is exactly revision, in the
	// order they were admitted. None is an empty list, not store.ErrNotFound,
	// whether or not revision is stored.
	ReviewsOf(ctx context.Context, revision string) ([]string, error)
}

package store

// LibraryObjects is the part of a LibraryStore that answers the reads of
// one object: its connections, discussion, map, activity, scores and
// sections. Its methods keep the Store's contract on concurrency,
// durability and errors.
type LibraryObjects interface {
}

package store

// LibraryCatalogue is the part of a LibraryStore that answers the
// catalogue and the changes feed. Its methods keep the Store's contract on
// concurrency, durability and errors.
type LibraryCatalogue interface {
}

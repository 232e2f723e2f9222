package store

// LibraryPersonal is the part of a LibraryStore that keeps each author's
// personal lists (following, saved), which are never part of the library's
// catalogue, revisions, graph or log. Its methods keep the Store's
// contract on concurrency, durability and errors.
type LibraryPersonal interface {
}

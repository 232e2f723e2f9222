package storetest

// testLibraryObjects checks the reads of one object.
func testLibraryObjects(f *fixture) {}

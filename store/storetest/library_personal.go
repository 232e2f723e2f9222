package storetest

// testLibraryPersonal checks the personal lists.
func testLibraryPersonal(f *fixture) {}

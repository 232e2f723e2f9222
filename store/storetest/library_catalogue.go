package storetest

// testLibraryCatalogue checks the catalogue and the changes feed.
func testLibraryCatalogue(f *fixture) {}

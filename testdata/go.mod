// Module testdata holds the repository's large test fixtures. It is a
// separate module so that the Go tool leaves it out of the module zip of
// github.com/storyeval/storyeval: `go get` downloads the code and its small
// embedded data only, while tests in a checkout read everything here.
module github.com/storyeval/storyeval/testdata

go 1.26

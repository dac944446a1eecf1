// Package fixturedir locates the encoder test data for tests.
//
// The golden tests of the encoders packages discover models, arrays and
// tolerances from the files in one directory with the layout of the shared
// fixture set (manifest.json, <model>/config.json, <model>/golden/index.json,
// tokenizers/, images/). By default that is testdata/encoders/fixtures at the
// repository root — the testdata folder is a module of its own, so the Go
// tool leaves it out of the module zip that `go get` downloads; setting
// STORYEVAL_ENCODER_FIXTURES runs the same tests unchanged on another
// fixture set, such as the full one a release is checked against. Data only
// one package's tests read (JPEG crops, pipeline goldens) lives beside it
// under testdata/encoders/<package> (Data).
package fixturedir

import (
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar names the environment variable that overrides the fixture directory.
const EnvVar = "STORYEVAL_ENCODER_FIXTURES"

// Dir returns the encoder fixture directory: $STORYEVAL_ENCODER_FIXTURES when
// set, else testdata/encoders/fixtures of this repository.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	return Data("fixtures")
}

// Data returns testdata/encoders/<elem…> of this repository.
func Data(elem ...string) string {
	root := filepath.Join("..", "..", "..") // from a package directory two levels down
	if _, file, _, ok := runtime.Caller(0); ok {
		// file is <root>/encoders/internal/fixturedir/dir.go
		root = filepath.Join(filepath.Dir(file), "..", "..", "..")
	}
	return filepath.Join(append([]string{root, "testdata", "encoders"}, elem...)...)
}

// Package fixturedir locates the encoder golden fixtures for tests.
//
// The golden tests of the encoders packages discover models, arrays and
// tolerances from the files in one directory with the layout of the shared
// fixture set (manifest.json, <model>/config.json, <model>/golden/index.json,
// tokenizers/, images/). By default that is the copy under encoders/testdata;
// setting STORYEVAL_ENCODER_FIXTURES runs the same tests unchanged on another
// fixture set, such as the full one a release is checked against.
package fixturedir

import (
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar names the environment variable that overrides the fixture directory.
const EnvVar = "STORYEVAL_ENCODER_FIXTURES"

// Dir returns the encoder fixture directory: $STORYEVAL_ENCODER_FIXTURES when
// set, else encoders/testdata of this module.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "testdata")
	}
	// file is .../encoders/internal/fixturedir/dir.go
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

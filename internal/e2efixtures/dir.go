// Package e2efixtures locates the end-to-end golden fixtures for tests.
//
// The end-to-end tests of the metric packages (RoViST-C/VG, GROOViST,
// CLIPScore, Vrank) discover their cases from the files of one folder laid
// out like testdata/e2e: one sub-folder per metric (rovist_c, rovist_vg,
// groovist, clip, clipscore, vrank), each with its index.json and
// expected.json. By default that is the copy in the repository's nested
// testdata module; setting STORYEVAL_E2E_FIXTURES runs the same tests on
// another fixture set made by the same generator (other models, sizes and
// stories).
package e2efixtures

import (
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar names the environment variable that overrides the fixture folder.
const EnvVar = "STORYEVAL_E2E_FIXTURES"

// Dir returns the end-to-end fixture folder: $STORYEVAL_E2E_FIXTURES when
// set, else testdata/e2e at the root of this repository.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "testdata", "e2e")
	}
	// file is <root>/internal/e2efixtures/dir.go
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "e2e")
}

// Metric returns the sub-folder of one metric (e.g. "rovist_c") in Dir.
func Metric(name string) string { return filepath.Join(Dir(), name) }

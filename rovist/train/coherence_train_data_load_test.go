package train

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func TestLoadSOPPairs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stories.json")
	data := `{"a": "The cat sat. The dog ran.", "b": "One sentence only."}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSOPPairs(path, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Story a gives its one adjacent pair in order (1) and swapped (0);
	// story b has no pair.
	want := []SOPPair{{A: "The cat sat.", B: "The dog ran.", Label: 1}, {A: "The dog ran.", B: "The cat sat.", Label: 0}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := LoadSOPPairs(path, limits.Limits{MaxBytes: 10}); err == nil {
		t.Fatalf("file over MaxBytes: no error")
	}
	missing := filepath.Join(filepath.Dir(path), "missing.json")
	if _, err := LoadSOPPairs(missing, limits.Limits{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing file: got %v, want an error naming %s", err, missing)
	}
}

package train

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func TestLoadCorpusTexts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := LoadCorpusTexts(write("ok.json", `{"z": "last id first.", "a": "second."}`), limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"last id first.", "second."}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q (file order)", got, want)
	}
	for _, c := range []struct{ name, data, want string }{
		{"none.json", `{}`, "no stories"},
		{"empty.json", `{"x": "text", "y": ""}`, `story "y" is empty`},
	} {
		p := write(c.name, c.data)
		if _, err := LoadCorpusTexts(p, limits.Limits{}); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: got %v, want an error naming the file with %q", c.name, err, c.want)
		}
	}
}

package stylem

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenTable reads the toy table file (the same n-grams as reading it
// with ReadTable), then checks the two kinds of error: a missing file is
// os.Open's *fs.PathError, a file that is not a table names its path.
func TestOpenTable(t *testing.T) {
	path := filepath.Join("testdata", "toy_table_34c9a1c.stylem")
	tab, err := OpenTable(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := ReadTable(f, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tab.NumNgrams() == 0 || tab.NumNgrams() != want.NumNgrams() || strings.Join(tab.Styles(), ",") != strings.Join(want.Styles(), ",") {
		t.Errorf("OpenTable: %d n-grams, styles %v; ReadTable: %d, %v", tab.NumNgrams(), tab.Styles(), want.NumNgrams(), want.Styles())
	}

	missing := filepath.Join(t.TempDir(), "none.stylem")
	var pe *fs.PathError
	if _, err := OpenTable(missing, ReadOptions{}); !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: error %v, want os.Open's", err)
	}
	notTable := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(notTable, []byte("{\"style\": \"Happy\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = OpenTable(notTable, ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), notTable+": ") || !strings.Contains(err.Error(), "not a StyleM table") {
		t.Errorf("not a table: error %v, want one naming %s", err, notTable)
	}
}

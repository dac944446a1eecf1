package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/vhed"
)

// vrankTestModel is the tiny Vrank model of the end-to-end fixtures.
const vrankTestModel = "../../testdata/e2e/vrank/model"

// vrankTestPairs reads the sent1 and sent2 columns of a CSV.
func vrankTestPairs(t *testing.T, path string) (s1, s2 []string) {
	t.Helper()
	pairs, err := vhed.Load(path, vhed.ReadOptions{StoriesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		s1, s2 = append(s1, p.Story1), append(s2, p.Story2)
	}
	return s1, s2
}

// TestVrankPredictErrors: a bad row is an error naming the file and the
// line, with the long value quoted and cut; the whole command exits 1.
func TestVrankPredictErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, csv, want string }{
		{"no sent2", "sent1," + strings.Repeat("h", 1000) + "\na,b\n", "missing column(s) sent2"},
		{"empty story", "sent1,sent2\na,b\nc, \n", "line 3, column sent2: empty story"},
		{"no rows", "sent1,sent2\n", "no rows after the header"},
		{"short row", "sent1,sent2\na,b\nc\n", "line 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
			if err := os.WriteFile(path, []byte(c.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runMain([]string{"vrank", "predict", "-model", vrankTestModel, "-csv", path}, &stdout, &stderr)
			msg := stderr.String()
			if code != 1 || !strings.Contains(msg, path) || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 || len(msg) > 400 {
				t.Errorf("exit %d, %q; want one line naming %s and saying %q", code, msg, path, c.want)
			}
		})
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestHostileErrorTextIsShort: a CSV whose header line is 50 MB (issue 24
// saw it echoed whole and raw into the error) gives a one-line error that
// quotes at most 200 bytes of it, from correlate and from groovist's
// entities file.
func TestHostileErrorTextIsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes a 50 MB file and starts a process per command")
	}
	dir := t.TempDir()
	header := bytes.Repeat([]byte("\x01column"), 50<<20/7)
	csvPath := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(csvPath, append(header, "\n1\n2\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	nps, sid2iids := filepath.Join(dir, "nps.json"), filepath.Join(dir, "sid2iids.json")
	if err := os.WriteFile(nps, []byte(`{"s1": ["the dog"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sid2iids, []byte(`{"s1": ["7"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"correlate", []string{"correlate", "-in", csvPath, "-x", "a", "-y", "b"}, `no column "a" in the header (columns: "\x01column\x01column`},
		{"groovist entities", []string{"groovist", "-nps", nps, "-entities", csvPath, "-crops", dir, "-model", e2efixtures.Metric("clip"),
			"-tokenizer", clipTokenizerDir, "-dataset", "custom", "-sid2iids", sid2iids}, `lacks the image_id or bbox column`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runProcess(t, []string{addressSpaceEnv + "=4294967296"}, tc.args...)
			msg := string(r.stderr)
			if r.code != 1 || strings.Count(strings.TrimSpace(msg), "\n") != 0 || !strings.Contains(msg, tc.want) {
				t.Fatalf("exit %d, message %.600q; want exit 1 and one line with %q", r.code, msg, tc.want)
			}
			if len(msg) > 600 || strings.Contains(msg, "\x01") {
				t.Errorf("message of %d bytes (raw bytes: %v), want the header quoted and cut to 200 bytes", len(msg), strings.Contains(msg, "\x01"))
			}
			t.Logf("%s: %.1f s, peak RSS %d MB: %s", tc.name, r.wall.Seconds(), r.peakRSS>>20, strings.TrimSpace(msg))
		})
	}
}

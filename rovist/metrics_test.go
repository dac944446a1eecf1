package rovist_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/rovist"
)

func TestParseMetrics(t *testing.T) {
	for in, want := range map[string]rovist.Computed{
		"vg,c,nr":  {VG: true, C: true, NR: true},
		"nr, VG ":  {VG: true, NR: true},
		"c":        {C: true},
		"C,c":      {C: true},
		"nr,nr,nr": {NR: true},
	} {
		if got, err := rovist.ParseMetrics(in); err != nil || got != want {
			t.Errorf("ParseMetrics(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, bad := range map[string]string{"c,xx": `"xx"`, "": `""`, "vg,,c": `""`} {
		if _, err := rovist.ParseMetrics(in); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseMetrics(%q): %v, want an error quoting %s", in, err, bad)
		}
	}
}

// TestLoadNouns reads a nouns file as extract_nouns.py writes it and
// checks its errors: a missing file (the *fs.PathError), a wrong shape
// (naming the file), a file over the limit (*limits.TooLargeError).
func TestLoadNouns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("nouns.json", `{"45686": ["kids", "blast"], "45712": []}`)
	got, err := rovist.LoadNouns(good, limits.Limits{})
	if want := map[string][]string{"45686": {"kids", "blast"}, "45712": {}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("LoadNouns = %v, %v; want %v", got, err, want)
	}
	if _, err := rovist.LoadNouns(filepath.Join(dir, "none.json"), limits.Limits{}); !errors.As(err, new(*fs.PathError)) {
		t.Errorf("missing file: %v, want an *fs.PathError", err)
	}
	bad := write("bad.json", `{"s1": ["dog"], "s2": 3}`)
	if _, err := rovist.LoadNouns(bad, limits.Limits{}); err == nil || !strings.HasPrefix(err.Error(), bad+": want {id: [nouns]}: ") {
		t.Errorf("wrong shape: %v, want an error naming %s and the shape", err, bad)
	}
	if _, err := rovist.LoadNouns(good, limits.Limits{MaxBytes: 10}); !errors.As(err, new(*limits.TooLargeError)) {
		t.Errorf("over the limit: %v, want a *limits.TooLargeError", err)
	}
}

package story

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

const suiteJSON = `{
  "images": {"i1": "img/i1.jpg", "i2": "img/i2.jpg", "i3": "/abs/i3.jpg"},
  "sequences": {
    "s2": {"images": ["i1", "i2"], "references": ["a ref ."], "stories": {"b": "b wrote .", "a": "a wrote ."}},
    "s1": {"images": ["i3"], "stories": {"a": "a again .", "b": "b again ."}}
  }
}`

func TestReadSuite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(suiteJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSuite(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Systems(); !reflect.DeepEqual(got, []string{"b", "a"}) {
		t.Fatalf("systems %q, want first-appearance order [b a]", got)
	}
	if s.Len() != 2 || s.At(0).ID != "s2" || s.At(1).ID != "s1" {
		t.Fatalf("sequence order %q %q", s.At(0).ID, s.At(1).ID)
	}
	seq, _ := s.Get("s2")
	if seq.Images[1].Path != filepath.Join(dir, "img/i2.jpg") {
		t.Fatalf("image path %q not resolved against the file's folder", seq.Images[1].Path)
	}
	if seq1, _ := s.Get("s1"); seq1.Images[0].Path != "/abs/i3.jpg" {
		t.Fatalf("absolute path changed: %q", seq1.Images[0].Path)
	}
	if s.HasReferences() {
		t.Fatal("s1 has no references, HasReferences says yes")
	}
	a, err := s.System("a")
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Texts(); !reflect.DeepEqual(got, []string{"a wrote .", "a again ."}) || len(a.At(0).Images) != 2 {
		t.Fatalf("system a: %q", got)
	}
	if _, err := s.System("zz"); err == nil {
		t.Fatal("unknown system accepted")
	}
}

func TestParseSuiteErrorsNameTheSequence(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{``, "empty input"},
		{`{"sequences": {}}`, "no sequences"},
		{`{"seqs": {}}`, "unknown field"},
		{`{"systems": ["a"]}`, `no "sequences"`},
		{`{"images": {"i1": "x"}, "sequences": {"s": {"images": ["i9"], "stories": {"a": "t"}}}}`, `story "s": unknown image "i9"`},
		{`{"sequences": {"s": {"stories": {"a": " "}}}}`, `story "s": story of system "a" is empty`},
		{`{"sequences": {"s": {"stories": {"a": 1}}}}`, `story of system "a" is not a string`},
		{`{"sequences": {"s": {"stories": {"a": "x"}}, "s": {"stories": {"a": "y"}}}}`, `"s" appears twice`},
		{`{"sequences": {"s": {"images": []}}}`, `story "s": no "stories" object`},
		{`{"sequences": {"s": {"stories": {"a": "x"}}, "t": {"stories": {"b": "y"}}}}`, `has no story of system`},
		{`{"systems": ["a"], "sequences": {"s": {"stories": {"a": "x", "c": "y"}}}}`, `system "c", which "systems" does not list`},
		{`{"sequences": {"s": {"references": [""], "stories": {"a": "x"}}}}`, "reference 0 is empty"},
	} {
		_, err := ParseSuite([]byte(tc.data), "suite.json", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "suite.json") {
			t.Errorf("ParseSuite(%s) = %v, want an error naming suite.json and saying %q", tc.data, err, tc.want)
		}
	}
}

func TestReadSuiteDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("beta.json", `{"x": "beta x .", "y": "beta y ."}`)
	write("alpha.json", `{"y": "alpha y .", "x": "alpha x ."}`)
	write("references.json", `{"x": ["ref x ."], "y": ["ref y .", "ref y2 ."]}`)
	s, err := LoadSuiteDir(dir, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Systems(); !reflect.DeepEqual(got, []string{"alpha", "beta"}) {
		t.Fatalf("systems %q", got)
	}
	if s.At(0).ID != "y" || s.At(0).Stories["beta"] != "beta y ." || !s.HasReferences() || len(s.At(0).References) != 2 {
		t.Fatalf("first sequence %+v", s.At(0))
	}
	write("gamma.json", `{"x": "g ."}`)
	if _, err := LoadSuiteDir(dir, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "gamma.json") {
		t.Fatalf("system with fewer stories: %v", err)
	}
	write("gamma.json", `{"x": "g .", "z": "g z ."}`)
	if _, err := LoadSuiteDir(dir, ReadOptions{}); err == nil || !strings.Contains(err.Error(), `story "z": not in alpha.json`) {
		t.Fatalf("system with another id: %v", err)
	}
	if _, err := LoadSuiteDir(t.TempDir(), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "no system files") {
		t.Fatalf("empty folder: %v", err)
	}
}

func FuzzParseSuite(f *testing.F) {
	f.Add([]byte(suiteJSON))
	f.Add([]byte(`{"sequences": {"s": {"stories": {"a": "x"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSuite(data, "fuzz", ReadOptions{Limits: limits.Limits{MaxBytes: 1 << 16}})
		if err != nil {
			return
		}
		for _, seq := range s.All() {
			for _, sys := range s.Systems() {
				if strings.TrimSpace(seq.Stories[sys]) == "" {
					t.Fatalf("sequence %q: blank story of %q accepted", seq.ID, sys)
				}
			}
		}
	})
}

package story

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func TestParseJSONKeepsFileOrderAndBothLayouts(t *testing.T) {
	data := []byte(`{"b": "second story .", "a": {"story": "first .", "images": ["11", "12"]}, "c": ""}`)
	set, err := ParseJSON(data, "in.json", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.IDs(), []string{"b", "a", "c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids %q, want %q", got, want)
	}
	a, ok := set.Get("a")
	if !ok || a.Text != "first ." || !reflect.DeepEqual(a.ImageIDs(), []string{"11", "12"}) {
		t.Fatalf("story a = %+v", a)
	}
	if got := set.Texts(); !reflect.DeepEqual(got, []string{"second story .", "first .", ""}) {
		t.Fatalf("texts %q", got)
	}
	n := 0
	for i, st := range set.All() {
		if st.ID != set.At(i).ID {
			t.Fatalf("All yields %q at %d, At gives %q", st.ID, i, set.At(i).ID)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("All yielded %d stories, want 3", n)
	}
}

func TestParseJSONErrorsNameFileIDAndProblem(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		opts       ReadOptions
		want       []string // substrings of the message
		id         string
	}{
		{"empty input", ``, ReadOptions{}, []string{"f.json", "empty input"}, ""},
		{"null", `null`, ReadOptions{}, []string{"f.json", "want a JSON object, got null"}, ""},
		{"array", `[1]`, ReadOptions{}, []string{"want a JSON object, got an array"}, ""},
		{"duplicate", `{"x": "a", "x": "b"}`, ReadOptions{}, []string{`id "x" appears twice`}, ""},
		{"number story", `{"x": 3}`, ReadOptions{}, []string{`story "x"`, "got a number"}, "x"},
		{"object without story", `{"x": {"images": ["1"]}}`, ReadOptions{}, []string{`story "x"`, `no "story" member`}, "x"},
		{"unknown member", `{"x": {"story": "s", "photos": []}}`, ReadOptions{}, []string{`story "x"`, "photos"}, "x"},
		{"empty image id", `{"x": {"story": "s", "images": [""]}}`, ReadOptions{}, []string{"image 0 has an empty id"}, "x"},
		{"blank rejected", `{"x": "  "}`, ReadOptions{RejectBlank: true}, []string{`story "x"`, "empty story"}, "x"},
		{"trailing", `{"x": "a"} {}`, ReadOptions{}, []string{"trailing data"}, ""},
		{"truncated", `{"x": "a"`, ReadOptions{}, []string{"malformed JSON object"}, ""},
		{"too large", `{"x": "a"}`, ReadOptions{Limits: limits.Limits{MaxBytes: 5}}, []string{"more than 5 bytes"}, ""},
		{"empty id", `{"": "a"}`, ReadOptions{}, []string{"empty story id"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.data), "f.json", tc.opts)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "f.json" || pe.ID != tc.id {
				t.Fatalf("error %v is not a ParseError for file f.json, id %q", err, tc.id)
			}
			var tl *limits.TooLargeError
			if errors.As(err, &tl) != (tc.opts.Limits.MaxBytes > 0) {
				t.Errorf("error %v: errors.As TooLargeError = %v", err, !(tc.opts.Limits.MaxBytes > 0))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestLoadJSONFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stories.json")
	if err := os.WriteFile(path, []byte(`{"s1": "a dog ran .", "s2": "a cat sat ."}`), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadJSON(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 2 || set.At(1).Text != "a cat sat ." {
		t.Fatalf("read %+v", set.Stories())
	}
	if _, err := LoadJSON(filepath.Join(t.TempDir(), "missing.json"), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := LoadJSON(path, ReadOptions{Limits: limits.Limits{MaxBytes: 10}}); err == nil || !strings.Contains(err.Error(), "stories.json") {
		t.Fatalf("size limit: %v", err)
	}
}

func TestSetRejectsDuplicateAndEmptyIDs(t *testing.T) {
	if _, err := NewSet(Story{ID: "a"}, Story{ID: "a"}); err == nil {
		t.Fatal("duplicate id accepted")
	}
	if _, err := NewSet(Story{}); err == nil {
		t.Fatal("empty id accepted")
	}
	var zero Set
	if err := zero.Add(Story{ID: "z", Text: "t"}); err != nil || zero.Len() != 1 {
		t.Fatalf("zero Set: %v, len %d", err, zero.Len())
	}
	if _, ok := (*Set)(nil).Get("z"); ok {
		t.Fatal("nil set found a story")
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a": "x"}`, `{"a": {"story": "s", "images": ["1"]}}`, `[]`, `null`, `{"a": 1}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseJSON(data, "fuzz", ReadOptions{Limits: limits.Limits{MaxBytes: 1 << 16}})
		if err != nil {
			if set != nil {
				t.Fatal("set returned with an error")
			}
			return
		}
		seen := map[string]bool{}
		for _, id := range set.IDs() {
			if id == "" || seen[id] {
				t.Fatalf("bad id %q in %q", id, set.IDs())
			}
			seen[id] = true
		}
	})
}

package story

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/storyeval/storyeval/limits"
)

// readAllStories reads r to the end, returning the stories read before
// the first error.
func readAllStories(r *JSONReader) ([]Story, error) {
	var out []Story
	for {
		st, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, st)
	}
}

func TestJSONReaderStreamsStoriesBeforeALaterError(t *testing.T) {
	in := `{"b": "One. Two.", "a": {"story": "Three.", "images": ["i1", "i2"]}, "c": 7}`
	r := NewJSONReader(iotest.OneByteReader(strings.NewReader(in)), "s.json", ReadOptions{})
	got, err := readAllStories(r)
	want := []Story{{ID: "b", Text: "One. Two."}, {ID: "a", Text: "Three.", Images: []Image{{ID: "i1"}, {ID: "i2"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stories %+v, want %+v", got, want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "s.json" || pe.ID != "c" || !strings.Contains(err.Error(), "got a number") {
		t.Fatalf("error %v, want a ParseError naming s.json and story c", err)
	}
	if _, again := r.Next(); again != err {
		t.Fatalf("Next after an error returned %v, want the same error", again)
	}
}

func TestJSONReaderErrors(t *testing.T) {
	for in, want := range map[string]string{
		``:                              "empty input",
		`null`:                          "got null",
		`{"a": "x", "a": "y"}`:          `id "a" appears twice`,
		`{"a": "x"} {}`:                 "trailing data",
		`{"a": "x"`:                     "malformed JSON object",
		`{"": "x"}`:                     "empty story id",
		`{"a": {"story": "x", "z": 1}}`: "unknown field",
	} {
		_, err := readAllStories(NewJSONReader(strings.NewReader(in), "f.json", ReadOptions{}))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "f.json") {
			t.Errorf("%q: error %v, want one naming f.json and saying %q", in, err, want)
		}
	}
	// The size limit holds over the stream, not per story.
	big := `{"a": "` + strings.Repeat("word ", 100) + `", "b": "x"}`
	_, err := readAllStories(NewJSONReader(strings.NewReader(big), "big.json", ReadOptions{Limits: limits.Limits{MaxBytes: 300}}))
	var tl *limits.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 300 || !strings.HasPrefix(err.Error(), "big.json: ") {
		t.Errorf("over the limit: %v, want a TooLargeError of 300 bytes naming big.json", err)
	}
	if _, err := readAllStories(NewJSONReader(strings.NewReader(big), "big.json", ReadOptions{Limits: limits.Limits{MaxBytes: int64(len(big))}})); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// FuzzJSONReader: the stream reader gives the same stories and the same
// error read whole or byte by byte, never panics, and what it reads
// re-encodes to a file that reads back the same.
func FuzzJSONReader(f *testing.F) {
	for _, s := range []string{
		`{"b": "One. Two.", "a": {"story": "Three.", "images": ["i1"]}}`,
		`{"a": "x", "a": "y"}`, `{"a": 1}`, `[]`, ``, `{"a": "x"} 1`, `{"a": {"images": []}}`,
		`{"\u00e9": "caf\u00e9 \ud83d\ude00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, err1 := readAllStories(NewJSONReader(bytes.NewReader(data), "f", ReadOptions{}))
		bytewise, err2 := readAllStories(NewJSONReader(iotest.OneByteReader(bytes.NewReader(data)), "f", ReadOptions{}))
		if !reflect.DeepEqual(whole, bytewise) || (err1 == nil) != (err2 == nil) {
			t.Fatalf("whole: %v %v; byte by byte: %v %v", whole, err1, bytewise, err2)
		}
		if err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("errors differ: %v / %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		var buf bytes.Buffer
		buf.WriteByte('{')
		for i, st := range whole {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(st.ID)
			obj := map[string]any{"story": st.Text, "images": st.ImageIDs()}
			v, _ := json.Marshal(obj)
			buf.Write(k)
			buf.WriteByte(':')
			buf.Write(v)
		}
		buf.WriteByte('}')
		again, err := readAllStories(NewJSONReader(&buf, "f", ReadOptions{}))
		if err != nil || len(again) != len(whole) {
			t.Fatalf("re-encoded %d stories read back as %d: %v", len(whole), len(again), err)
		}
		for i := range again {
			if again[i].ID != whole[i].ID || again[i].Text != whole[i].Text || !reflect.DeepEqual(again[i].ImageIDs(), whole[i].ImageIDs()) {
				t.Fatalf("story %d: %+v read back as %+v", i, whole[i], again[i])
			}
		}
	})
}

// FuzzSuiteStream: a suite decodes the same from a byte slice and from a
// one-byte-at-a-time stream, and never panics.
func FuzzSuiteStream(f *testing.F) {
	f.Add([]byte(suiteJSON))
	for _, s := range []string{
		`{"sequences": {"s": {"stories": {"a": "x"}}}, "systems": ["a"], "images": {}}`,
		`{"sequences": {"s": {"images": ["i"], "stories": {"a": "x"}}}, "images": {"i": "p.jpg"}}`,
		`{"sequences": {}, "sequences": {}}`, `{"systems": ["a"]}`, `{"x": 1}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err1 := ParseSuite(data, "f", ReadOptions{})
		b, err2 := decodeSuite(iotest.OneByteReader(bytes.NewReader(data)), "f", "", ReadOptions{})
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("errors differ: %v / %v", err1, err2)
		}
		if err1 == nil && !reflect.DeepEqual(a, b) {
			t.Fatalf("suites differ:\n%+v\n%+v", a, b)
		}
		if err1 == nil {
			for _, seq := range a.All() {
				if len(seq.Stories) != len(a.Systems()) {
					t.Fatalf("sequence %q has %d stories for %d systems", seq.ID, len(seq.Stories), len(a.Systems()))
				}
			}
		}
	})
}

package stylem

import (
	"bytes"
	"compress/gzip"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/gzipbound"
	"github.com/storyeval/storyeval/limits"
)

func TestReadPersonalityCaptions(t *testing.T) {
	data := readGzip(t, "personality_captions_sample.json.gz")
	tests := []struct {
		name string
		opts PersonalityCaptionsOptions
		want []Record
	}{
		{"reference", PersonalityCaptionsOptions{}, []Record{
			{"2923e28b6f588aff2d469ab2cccfac57", "Happy", []string{"What a lovely day for a walk!"}},
			{"e59ff97941044f85df5297e1c302d260", "Gloomy", []string{"Another grey, empty street.", "Nothing ever changes here.", "So sad and lonely."}},
			{"2923e28b6f588aff2d469ab2cccfac57", "Angry", []string{"Why is everyone so slow?"}},
		}},
		{"first comment, keep excluded", PersonalityCaptionsOptions{FirstCommentOnly: true, KeepExcluded: true}, []Record{
			{"2923e28b6f588aff2d469ab2cccfac57", "Happy", []string{"What a lovely day for a walk!"}},
			{"ac8f1b2c3d4e5f60718293a4b5c6d7e8", "Gloomy", []string{"This broken image is dropped by the reference."}},
			{"b1946ac92492d2347c6235b4d2611184", "Gloomy", []string{"[DISCONNECT]"}},
			{"e59ff97941044f85df5297e1c302d260", "Gloomy", []string{"Another grey, empty street."}},
			{"2923e28b6f588aff2d469ab2cccfac57", "Angry", []string{"Why is everyone so slow?"}},
		}},
	}
	for _, tt := range tests {
		got, err := ReadPersonalityCaptions(bytes.NewReader(data), tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestReadPersonalityCaptionsPreStyleMLayout(t *testing.T) {
	in := `{"dataset": "x", "images": [{"image_hash": "h1", "personality": "Happy", "sentences": ["a b", "c"], "split": "train"}]}`
	got, err := ReadPersonalityCaptions(strings.NewReader(in), PersonalityCaptionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{"h1", "Happy", []string{"a b", "c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestReadPersonalityCaptionsErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"x": 1}`, `without an "images" list`},
		{`"text"`, "want a JSON list"},
		{`[{"personality": "Happy", "comment": "x"}]`, `record 0: missing "image_hash"`},
		{`[{"image_hash": "h", "personality": "Happy"}]`, `record 0 (image "h"): no "comment"`},
		{`[{"image_hash": "h", "personality": "", "comment": "x"}]`, "empty personality"},
		{`[{"image_hash": "h", "personality": "A", "comment": "x"}`, "unterminated"},
		{`[{"image_hash": 5}]`, "record 0"},
		{`[` + strings.Repeat(`{"image_hash": "h", "personality": "A", "comment": "x"},`, 10) + `]`, "PERSONALITY-CAPTIONS: more than 200 bytes"},
	}
	for _, tt := range tests {
		_, err := ReadPersonalityCaptions(strings.NewReader(tt.in), PersonalityCaptionsOptions{Limits: limits.Limits{MaxBytes: 200}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadPersonalityCaptions(%.40q) error = %v, want one containing %q", tt.in, err, tt.want)
		}
	}
}

func TestReadCorpusJSONL(t *testing.T) {
	in := `{"style": "Happy", "caption": "what fun", "image": "i1"}

{"style": "Gloomy", "caption": "so grey"}
`
	got, err := ReadCorpusJSONL(strings.NewReader(in), limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{"i1", "Happy", []string{"what fun"}}, {"#3", "Gloomy", []string{"so grey"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"caption": "x"}`, `line 1: missing or empty "style"`},
		{"\n" + `{"style": "A"}`, `line 2: missing "caption"`},
		{`{"style": "A", "caption": 3}`, "line 1"},
		{`{"style": "A", "caption": "` + strings.Repeat("x", 300) + `"}`, "corpus: more than 200 bytes"},
		{`{"style": "A", "caption": "` + strings.Repeat("x", maxJSONLLine) + `"}`, "longer than"},
	} {
		limit := int64(200)
		if len(tt.in) > maxJSONLLine {
			limit = 0
		}
		_, err := ReadCorpusJSONL(strings.NewReader(tt.in), limits.Limits{MaxBytes: limit})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadCorpusJSONL(%.40q) error = %v, want one containing %q", tt.in, err, tt.want)
		}
	}
}

func FuzzReadPersonalityCaptions(f *testing.F) {
	f.Add(readGzip(f, "personality_captions_sample.json.gz"))
	f.Add([]byte(`{"images": [{"image_hash": "h", "personality": "A", "sentences": ["x"]}]}`))
	f.Add([]byte(`[{"image_hash": "ac8", "personality": "A", "comment": "[TIMEOUT]"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadPersonalityCaptions(bytes.NewReader(data), PersonalityCaptionsOptions{Limits: limits.Limits{MaxBytes: 1 << 16}})
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.Style == "" || len(r.Captions) == 0 {
				t.Fatalf("accepted an invalid record %q", r)
			}
		}
		// Whatever loads must build or fail cleanly.
		if _, err := Build(recs, BuildOptions{Step: Simple}); err != nil && len(recs) > 0 && !strings.Contains(err.Error(), "style") {
			t.Fatalf("Build: %v", err)
		}
	})
}

func FuzzReadCorpusJSONL(f *testing.F) {
	f.Add([]byte(`{"style": "Happy", "caption": "what fun", "image": "i1"}` + "\n" + `{"style": "Gloomy", "caption": "so grey"}`))
	f.Add([]byte("\n\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadCorpusJSONL(bytes.NewReader(data), limits.Limits{MaxBytes: 1 << 16})
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.Style == "" || len(r.Captions) != 1 {
				t.Fatalf("accepted an invalid record %q", r)
			}
		}
	})
}

// cutReader yields data, then fails with err, as a gzip stream stopped by
// its bound does mid-line.
type cutReader struct {
	data []byte
	err  error
}

func (c *cutReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, c.err
	}
	n := copy(p, c.data)
	c.data = c.data[n:]
	return n, nil
}

// TestReadCorpusJSONLReportsTheReadErrorNotTheCutLine: a read error ends
// the input mid-line; the scanner hands out the cut line, whose JSON error
// ("unexpected end of JSON input") used to hide the read error (issue 24).
func TestReadCorpusJSONLReportsTheReadErrorNotTheCutLine(t *testing.T) {
	line := `{"style": "Happy", "caption": "A sunny day.", "image": "1"}` + "\n"
	boom := errors.New("gzip stream expands beyond its bound")
	for _, cut := range []int{0, 1, len(line) / 2, len(line) - 2, len(line) - 1} {
		r := &cutReader{data: []byte(strings.Repeat(line, 1000) + line[:cut]), err: boom}
		_, err := ReadCorpusJSONL(r, limits.Limits{})
		if !errors.Is(err, boom) {
			t.Errorf("cut after %d bytes of the last line: err %v, want the read error", cut, err)
		}
	}
	// A real bomb: valid lines compressed far beyond gzipbound's ratio.
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write([]byte(strings.Repeat(line, 64<<20/len(line))))
	zw.Close()
	zr, err := gzipbound.NewReader(&gz, gzipbound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadCorpusJSONL(zr, limits.Limits{})
	if !errors.Is(err, gzipbound.ErrTooLarge) || strings.Contains(err.Error(), "JSON") {
		t.Errorf("gzip bomb of valid lines: err %v, want gzipbound.ErrTooLarge", err)
	}
}

package stylem

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestReadCorpusFormats checks that each format name reaches its reader
// (the records written out by hand) and that an unknown name is a
// *CorpusFormatError naming it, before the input is read.
func TestReadCorpusFormats(t *testing.T) {
	const jsonl = `{"style": "Happy", "caption": "a fun day", "image": "1"}` + "\n" +
		`{"style": "Gloomy", "caption": "a grey day", "image": "2"}` + "\n"
	// The second record is one the reference's main() drops ("ac8…").
	const pc = `[{"personality": "Happy", "comment": "a fun day", "image_hash": "1", "additional_comments": ["so fun"]},
		{"personality": "Gloomy", "comment": "a grey day", "image_hash": "ac8f"}]`
	for _, c := range []struct {
		format, in string
		want       []Record
	}{
		{"jsonl", jsonl, []Record{{Image: "1", Style: "Happy", Captions: []string{"a fun day"}}, {Image: "2", Style: "Gloomy", Captions: []string{"a grey day"}}}},
		{"personality-captions", pc, []Record{{Image: "1", Style: "Happy", Captions: []string{"a fun day", "so fun"}}}},
	} {
		got, err := ReadCorpus(strings.NewReader(c.in), c.format)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ReadCorpus = %+v, %v; want %+v", c.format, got, err, c.want)
		}
	}
	r := &countReader{r: strings.NewReader(jsonl)}
	_, err := ReadCorpus(r, "csv")
	var fe *CorpusFormatError
	if !errors.As(err, &fe) || fe.Format != "csv" || err.Error() != `unknown format "csv" (want jsonl or personality-captions)` {
		t.Errorf("format csv: error %v, want a *CorpusFormatError for \"csv\"", err)
	}
	if r.n != 0 {
		t.Errorf("format csv: %d bytes read before the error, want 0", r.n)
	}
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

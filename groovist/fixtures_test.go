package groovist

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// tokenizerDir is the CLIP BPE vocabulary: the fixture CLIP folder when it
// has one, else the full OpenAI vocabulary the encoders tests ship.
func tokenizerDir(clipDir string) string {
	for _, f := range []string{"vocab.json", "vocab.json.gz"} {
		if _, err := os.Stat(filepath.Join(clipDir, f)); err == nil {
			return clipDir
		}
	}
	return filepath.Join("..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full")
}

// loadFixtureCLIP loads the e2e tiny CLIP and the CLIP tokenizer.
func loadFixtureCLIP(t testing.TB) (*encoders.CLIP, *tokenize.CLIP) {
	t.Helper()
	dir := e2efixtures.Metric("clip")
	m, err := encoders.LoadCLIP(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenize.LoadCLIP(tokenizerDir(dir), tokenize.CLIPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m, tok
}

// readPythonJSON decodes JSON written by Python's json.dump, whose NaN,
// Infinity and -Infinity literals become null.
func readPythonJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(pythonLiterals(data), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func pythonLiterals(data []byte) []byte {
	var out bytes.Buffer
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out.WriteByte(c)
			if c == '\\' && i+1 < len(data) {
				i++
				out.WriteByte(data[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			out.WriteString("null")
			i += 2
			continue
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			out.WriteString("null")
			i += 8
			continue
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			out.WriteString("null")
			i += 7
			continue
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// orderedKeys returns the keys of a JSON object in file order.
func orderedKeys(t testing.TB, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v", err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// close32 is the parity test for values computed from a float32 forward
// pass: within 1e-5, relative above 1. A nil want (null: NaN) needs NaN.
func close32(got float64, want *float64) bool {
	if want == nil {
		return math.IsNaN(got)
	}
	return math.Abs(got-*want) <= 1e-5*math.Max(1, math.Abs(*want))
}

// counter counts the expected values a test compared.
type counter struct {
	t       testing.TB
	checked map[string]int
	failed  int
}

func newCounter(t testing.TB) *counter { return &counter{t: t, checked: map[string]int{}} }

func (c *counter) ok(file string, good bool, format string, args ...any) {
	c.t.Helper()
	c.checked[file]++
	if !good {
		c.failed++
		c.t.Errorf(format, args...)
	}
}

func (c *counter) report() {
	for f, n := range c.checked {
		c.t.Logf("%s: %d values checked", f, n)
	}
}

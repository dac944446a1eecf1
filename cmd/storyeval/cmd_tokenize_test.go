package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

func TestTokenizeCommand(t *testing.T) {
	const texts = "../../testdata/encoders/fixtures/tokenizers/cli/texts.json"
	tests := []struct {
		family, model string
		extra         []string
		want          [][]int
		wantMask      [][]int
	}{
		{
			"bert", "../../testdata/encoders/fixtures/tokenizers/bert", []string{"-padding", "longest"},
			// bert_wordpiece.json batch_padded, rows 1 and 6.
			[][]int{
				{101, 7592, 1010, 2088, 999, 102, 0, 0, 0, 0, 0},
				{101, 7668, 15743, 13746, 17654, 8508, 14855, 2721, 11837, 2080, 102},
			},
			[][]int{{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		},
		{
			"albert", "../../testdata/encoders/fixtures/tokenizers/albert", []string{"-truncation", "longest_first", "-max-length", "6"},
			[][]int{{2, 10975, 15, 126, 187, 3}, {2, 6241, 16288, 13113, 15180, 3}},
			[][]int{{1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}},
		},
		{
			"clip", "../../testdata/encoders/fixtures/tokenizers/clip_full", nil,
			[][]int{
				{49406, 3306, 267, 1002, 256, 49407},
				{49406, 15304, 1097, 35689, 563, 29106, 7054, 4166, 622, 7255, 703, 671, 778, 10067, 1928, 43017, 49407},
			},
			[][]int{{1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		args := append([]string{"tokenize", "-family", tc.family, "-model", tc.model, "-texts", texts}, tc.extra...)
		if code := runMain(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.family, code, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines, want 2", tc.family, len(lines))
		}
		for i, line := range lines {
			var got tokenize.IDEncoding
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatal(err)
			}
			if wantID := []string{"s1", "s2"}[i]; got.ID != wantID {
				t.Errorf("%s line %d: id %q, want %q", tc.family, i, got.ID, wantID)
			}
			if !reflect.DeepEqual(got.IDs, tc.want[i]) || !reflect.DeepEqual(got.AttentionMask, tc.wantMask[i]) {
				t.Errorf("%s line %d: ids %v mask %v, want %v %v", tc.family, i, got.IDs, got.AttentionMask, tc.want[i], tc.wantMask[i])
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"tokenize", "-family", "gpt2", "-model", "x", "-texts", texts}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `unknown -family "gpt2"`) {
		t.Errorf("unknown family: exit %d, stderr %q", code, stderr.String())
	}
}

// TestTokenizePadLongestAcrossBatches: the texts are encoded a batch at a
// time, and -padding longest must still pad every line to the longest text
// of the whole file (here in the second batch), each line being the
// unpadded encoding followed by [PAD] (id 0, attention 0).
func TestTokenizePadLongestAcrossBatches(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	n := batchStories + 100
	longest := batchStories + 50
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		text := "hello world"
		if i == longest {
			text = strings.Repeat("a long text ", 20)
		}
		fmt.Fprintf(&b, "%q: %q", fmt.Sprintf("t%d", i), text)
	}
	b.WriteString("}")
	path := filepath.Join(t.TempDir(), "texts.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(padding string) []tokenize.IDEncoding {
		var stdout, stderr bytes.Buffer
		if code := runMain([]string{"tokenize", "-family", "bert", "-model", "../../testdata/encoders/fixtures/tokenizers/bert", "-padding", padding, "-texts", path}, &stdout, &stderr); code != 0 {
			t.Fatalf("-padding %s: exit %d: %s", padding, code, stderr.String())
		}
		var lines []tokenize.IDEncoding
		dec := json.NewDecoder(&stdout)
		for dec.More() {
			var l tokenize.IDEncoding
			if err := dec.Decode(&l); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, l)
		}
		return lines
	}
	plain, padded := run("none"), run("longest")
	if len(plain) != n || len(padded) != n {
		t.Fatalf("%d and %d lines, want %d", len(plain), len(padded), n)
	}
	width := len(plain[longest].IDs)
	for i := range padded {
		p, q := plain[i], padded[i]
		k := len(p.IDs)
		if len(q.IDs) != width || !reflect.DeepEqual(q.IDs[:k], p.IDs) {
			t.Fatalf("line %d: %v, want %v padded to %d", i, q.IDs, p.IDs, width)
		}
		for j := k; j < width; j++ {
			if q.IDs[j] != 0 || q.AttentionMask[j] != 0 {
				t.Fatalf("line %d: position %d is not padding: id %d, mask %d", i, j, q.IDs[j], q.AttentionMask[j])
			}
		}
	}
	if width <= len(plain[0].IDs) {
		t.Fatalf("the longest text (%d ids) is not longer than the others (%d)", width, len(plain[0].IDs))
	}
}

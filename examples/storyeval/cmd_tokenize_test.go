package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
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
			var got tokenizeLine
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatal(err)
			}
			if wantID := []string{"s1", "s2"}[i]; got.ID != wantID {
				t.Errorf("%s line %d: id %q, want %q", tc.family, i, got.ID, wantID)
			}
			if !reflect.DeepEqual(got.InputIDs, tc.want[i]) || !reflect.DeepEqual(got.AttentionMask, tc.wantMask[i]) {
				t.Errorf("%s line %d: ids %v mask %v, want %v %v", tc.family, i, got.InputIDs, got.AttentionMask, tc.want[i], tc.wantMask[i])
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"tokenize", "-family", "gpt2", "-model", "x", "-texts", texts}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `unknown -family "gpt2"`) {
		t.Errorf("unknown family: exit %d, stderr %q", code, stderr.String())
	}
}

package ngram

import (
	"sort"
	"testing"
)

func TestPTBTokenizeMatchesCocoToolkit(t *testing.T) {
	for _, name := range goldenCases {
		var in caseFile
		var gold cocoGolden
		readGzipJSON(t, name+".json.gz", &in)
		readGzipJSON(t, name+".coco.json.gz", &gold)
		want := gold.Modes["ptb"].Tokenized
		n, bad := 0, 0
		check := func(id, raw, w string) {
			n++
			if got := PTBTokenize(raw); got != w {
				bad++
				if bad <= 10 {
					t.Errorf("%s %s: PTBTokenize(%q)\n got %q\nwant %q", name, id, raw, got, w)
				}
			}
		}
		for id, c := range in.Cands {
			check(id, c, want.Cands[id])
		}
		for id, rs := range in.Refs {
			for i, r := range rs {
				check(id, r, want.Refs[id][i])
			}
		}
		t.Logf("%s: %d/%d captions tokenized identically", name, n-bad, n)
	}
}

func TestPTBTokenizeLLaVAStories(t *testing.T) {
	var stories map[string]string
	var gold struct {
		Tokenized map[string]string `json:"tokenized"`
	}
	readGzipJSON(t, "vist_llava_first500.json.gz", &stories)
	readGzipJSON(t, "ptb_llava500.json.gz", &gold)
	ids := make([]string, 0, len(gold.Tokenized))
	for id := range gold.Tokenized {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	bad := 0
	for _, id := range ids {
		if got := PTBTokenize(stories[id]); got != gold.Tokenized[id] {
			bad++
			if bad <= 5 {
				t.Errorf("story %s:\n got %q\nwant %q", id, got, gold.Tokenized[id])
			}
		}
	}
	if len(ids) != 500 {
		t.Errorf("golden has %d stories, want 500", len(ids))
	}
	t.Logf("%d/%d stories tokenized identically", len(ids)-bad, len(ids))
}

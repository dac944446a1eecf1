package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNounsCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"nouns", "-stories", "../../rovist/testdata/nouns_cli_stories.json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr: %s", code, stderr.String())
	}
	var got map[string][][]string
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	// The reference's nouns (NLTK 3.8) for VIST test stories 45531 and 45530.
	want := map[string][][]string{
		"45531": {{"crafts", "fair"}, {"booth", "crafts", "variety"}, {"bit", "booth", "female", "friend"}, {"booths", "kids"}, {"crafts", "fair"}},
		"45530": {{"craft", "parish", "show", "year"}, {"crafts", "folks", "lots", "tables"}, {"crafts", "lot", "talent"}, {"ages", "crafts", "folks", "sale"}, {"act", "costumes", "crafters", "part", "selling"}},
		"empty": {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nouns output\n got %v\nwant %v", got, want)
	}
	// Members come out in the input file's order, not sorted.
	out := stdout.String()
	if a, b, c := strings.Index(out, `"45531"`), strings.Index(out, `"45530"`), strings.Index(out, `"empty"`); !(a >= 0 && a < b && b < c) {
		t.Errorf("stories not in input order:\n%s", out)
	}
}

func TestNounsCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"nouns"},
		{"nouns", "-stories", "../../rovist/testdata/no_such_file.json"},
		{"nouns", "-stories", "../../rovist/testdata/nouns_cli_stories.json", "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code == 0 || stderr.Len() == 0 {
			t.Errorf("%q: exit status %d, stderr %q; want a failure with a message", args, code, stderr.String())
		}
	}
}

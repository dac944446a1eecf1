package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/rovist"
)

// cliStories holds VIST test stories 45531, 45541 (one sentence, no
// punctuation) and 45530, and LLaVA story 45605 as "llava-45605".
const cliStories = "../../internal/words/testdata/cli_stories.json"

func TestTokensCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"tokens", "-stories", cliStories}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr: %s", code, stderr.String())
	}
	var lines []rovist.StoryTokens
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l rovist.StoryTokens
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", len(lines)+1, err, sc.Text())
		}
		lines = append(lines, l)
	}
	wantIDs := []string{"45531", "45541", "llava-45605", "45530"}
	wantSentences := []int{5, 1, 5, 5}
	if len(lines) != len(wantIDs) {
		t.Fatalf("%d lines, want %d", len(lines), len(wantIDs))
	}
	for i, l := range lines {
		if l.ID != wantIDs[i] || len(l.Sentences) != wantSentences[i] || len(l.Words) != wantSentences[i] {
			t.Errorf("line %d: id %q with %d sentences and %d token lists, want %q with %d",
				i+1, l.ID, len(l.Sentences), len(l.Words), wantIDs[i], wantSentences[i])
		}
	}
	// NLTK 3.8's output for the first sentence of the LLaVA story, whose
	// double quotes become `` and ''.
	wantSentence := `In the first image, a group of people gather around a sign that reads, "Ode in seven Canadian men will be diagnosed with prostate cancer in their lifetime."`
	wantWords := []string{"In", "the", "first", "image", ",", "a", "group", "of", "people", "gather", "around", "a", "sign", "that", "reads", ",", "``", "Ode", "in", "seven", "Canadian", "men", "will", "be", "diagnosed", "with", "prostate", "cancer", "in", "their", "lifetime", ".", "''"}
	if got := lines[2].Sentences[0]; got != wantSentence {
		t.Errorf("sentence = %q, want %q", got, wantSentence)
	}
	if got := lines[2].Words[0]; !reflect.DeepEqual(got, wantWords) {
		t.Errorf("words = %q, want %q", got, wantWords)
	}
	if got, want := lines[0].Words[4], []string{"i", "found", "some", "awesome", "crafts", "at", "the", "fair", ",", "i", "'m", "really", "happy", "that", "i", "went", "."}; !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestTokensCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"tokens"},
		{"tokens", "-stories", "../../internal/words/testdata/no_such_file.json"},
		{"tokens", "-stories", cliStories, "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code == 0 || stderr.Len() == 0 {
			t.Errorf("%q: exit status %d, stderr %q; want a failure with a message", args, code, stderr.String())
		}
	}
}

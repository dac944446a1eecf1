package main

import (
	"bytes"
	"testing"

	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func TestNRCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"nr", "-format", "csv", "-stories", cliStories}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr: %s", code, stderr.String())
	}
	// Published RoViST-NR scores (rovist/testdata/*_R.csv.gz); story 45541
	// has one sentence and is absent from the published file.
	want := "id,nr\n" +
		"45531,0.9132038022999122\n" +
		"45541,NaN\n" +
		"llava-45605,0.8466142135944096\n" +
		"45530,0.9321602070698181\n"
	if got := stdout.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}

func TestNRCommandOptions(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"nr", "-format", "csv", "-stories", cliStories, "-set-jaccard", "-block", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr: %s", code, stderr.String())
	}
	// The flags reach the library: each row is rovist.NonRedundancy with
	// the same options, which differs from the published score.
	set, err := story.LoadJSON(cliStories, story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts := rovist.NROptions{SetJaccard: true, BlockLength: 2}
	want := "id,nr\n"
	for _, st := range set.Stories() {
		id := st.ID
		res, err := rovist.NonRedundancy(st.Text, opts)
		if err != nil {
			t.Fatal(err)
		}
		want += id + "," + jsonfloat.CSV(res.Score) + "\n"
	}
	if got := stdout.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
	if bytes.Contains(stdout.Bytes(), []byte("0.9132038022999122")) {
		t.Errorf("-set-jaccard -block 2 gave the published (default) score:\n%s", stdout.String())
	}
}

func TestNRCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"nr"},
		{"nr", "-stories", "../../internal/words/testdata/no_such_file.json"},
		{"nr", "-stories", cliStories, "-block", "0"},
		{"nr", "-stories", cliStories, "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code == 0 || stderr.Len() == 0 {
			t.Errorf("%q: exit status %d, stderr %q; want a failure with a message", args, code, stderr.String())
		}
	}
}

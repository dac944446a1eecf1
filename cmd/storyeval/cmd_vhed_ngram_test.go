package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestVHEDAssessNgramVariants checks that vhed assess accepts the nltkbleu
// and meteor-vist metric names and reports them under their names (their
// values are checked in packages vhed and ngram).
func TestVHEDAssessNgramVariants(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"vhed", "assess", "-csv", "samples/vhed.csv", "-metrics", "nltkbleu,meteor-vist", "-format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{`"name": "NLTK-BLEU"`, `"name": "METEOR-VIST"`} {
		if !strings.Contains(stdout.String(), name) {
			t.Errorf("output lacks %s:\n%s", name, stdout.String())
		}
	}
}

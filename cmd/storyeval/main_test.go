package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"-version"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// A test binary's build info names the module's version ("(devel)" in
	// a checkout) and the Go version.
	if out := stdout.String(); !strings.HasPrefix(out, "storyeval ") || !strings.Contains(out, "go1.") {
		t.Errorf("-version printed %q", out)
	}
}

func TestInterruptedRunExits130(t *testing.T) {
	commands["zz-interrupted"] = command{name: "zz-interrupted", run: func([]string, io.Writer, io.Writer) error {
		return fmt.Errorf("x.csv: %w", context.Canceled)
	}}
	defer delete(commands, "zz-interrupted")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"zz-interrupted"}, &stdout, &stderr); code != 130 || stderr.String() != "storyeval zz-interrupted: interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestStrayArgumentsRejected checks that every subcommand that reads its
// inputs from flags rejects a positional argument instead of ignoring it.
func TestStrayArgumentsRejected(t *testing.T) {
	for _, args := range [][]string{
		{"score", "-demo", "stray"},
		{"models", "-dir", ".", "stray"},
		{"models", "convert", "-in", "a", "-out", "b", "stray"},
		{"clipscore", "-cands", "c.json", "stray"},
		{"groovist", "-stories", "s.json", "stray"},
		{"rovist", "-stories", "s.json", "stray"},
		{"rovist", "train", "vg", "-out", "o", "stray"},
		{"rovist", "train", "c", "-out", "o", "stray"},
		{"vhed", "assess", "-csv", "v.csv", "stray"},
		{"vrank", "train", "-csv", "v.csv", "stray"},
		{"vrank", "predict", "-model", "m", "stray"},
		{"vrank", "pretrain", "-corpus", "c.txt", "stray"},
	} {
		var stdout, stderr bytes.Buffer
		code := runMain(args, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "takes no positional arguments") {
			t.Errorf("%q: exit %d, stderr %q; want a 'takes no positional arguments' error", args, code, stderr.String())
		}
	}
}

package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeCommands returns the argument lists of the README's
// "go run ./cmd/storyeval ..." lines in its sh code blocks.
func readmeCommands(t *testing.T, readme string) [][]string {
	t.Helper()
	var cmds [][]string
	inBlock := false
	sc := bufio.NewScanner(strings.NewReader(readme))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock && strings.HasPrefix(line, "```sh")
			continue
		}
		const prefix = "go run ./cmd/storyeval"
		if !inBlock || !strings.HasPrefix(line, prefix+" ") {
			continue
		}
		args, err := splitShellWords(strings.TrimPrefix(line, prefix+" "))
		if err != nil {
			t.Fatalf("README line %q: %v", line, err)
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// splitShellWords splits a command line the way sh does for the README's
// simple lines: words separated by blanks, double-quoted words, and a
// comment from an unquoted "#" to the end.
func splitShellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case !quoted && r == '#' && !inWord:
			return words, nil
		case !quoted && (r == ' ' || r == '\t'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, os.ErrInvalid
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestREADMECommandsRunOnTheShippedSamples runs every storyeval command of
// the README from a directory laid out like the repository root (outputs
// such as stylem build's table land in a temporary folder) and checks that
// each succeeds with well-formed output, and that the README covers every
// subcommand.
func TestREADMECommandsRunOnTheShippedSamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, string(readme))
	if len(cmds) == 0 {
		t.Fatal("no storyeval commands in the README")
	}
	work := t.TempDir()
	for _, dir := range []string{"cmd", "examples", "testdata"} {
		if err := os.Symlink(filepath.Join(root, dir), filepath.Join(work, dir)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	covered := map[string]bool{}
	for _, args := range cmds {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code != 0 {
			t.Errorf("storyeval %q: exit status %d, stderr:\n%s", args, code, stderr.String())
			continue
		}
		covered[args[0]] = true
		out := bytes.TrimSpace(stdout.Bytes())
		switch {
		case args[0] == "-h":
			if !bytes.Contains(stderr.Bytes(), []byte("subcommands:")) {
				t.Errorf("storyeval -h printed no subcommand list:\n%s", stderr.String())
			}
		case args[0] == "-version":
			if !bytes.HasPrefix(out, []byte("storyeval ")) {
				t.Errorf("storyeval -version printed %q", out)
			}
		case len(out) == 0:
			t.Errorf("storyeval %q printed nothing", args)
		case out[0] == '{' || out[0] == '[':
			// JSON, or JSON lines (tokens, tokenize).
			dec := json.NewDecoder(bytes.NewReader(out))
			for dec.More() {
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Errorf("storyeval %q: output is not JSON: %v\n%s", args, err, out)
					break
				}
			}
		default:
			if _, err := csv.NewReader(bytes.NewReader(out)).ReadAll(); err != nil {
				t.Errorf("storyeval %q: output is neither JSON nor CSV: %v\n%s", args, err, out)
			}
		}
	}
	// Every registered subcommand has a sample run, or (the neural metric
	// subcommands, whose inputs are models) is named in the README.
	for name := range commands {
		if covered[name] {
			continue
		}
		if !regexp.MustCompile("`" + regexp.QuoteMeta(name) + "`").Match(readme) {
			t.Errorf("subcommand %s is not in the README", name)
		} else if !isNeuralMetricCommand(name) {
			t.Errorf("subcommand %s has no sample run in the README", name)
		}
	}
}

// isNeuralMetricCommand reports whether the README may list a subcommand
// without a sample run: the neural metric subcommands need model
// checkpoints that the samples do not ship yet.
func isNeuralMetricCommand(name string) bool {
	switch name {
	case "rovist", "groovist", "clipscore", "vrank", "vhed":
		return true
	}
	return false
}

// TestREADMEGoVersionMatchesGoMod checks that the README's required Go
// version is go.mod's go line.
func TestREADMEGoVersionMatchesGoMod(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "Go " + string(m[1]) + " or newer"
	if !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README does not say %q (go.mod: go %s)", want, m[1])
	}
}

// TestREADMEListsEveryExample checks that the README's example lines
// ("go run ./examples/NAME") and the programs under examples/ are the same
// set, so that a new example is documented and a documented one exists
// (each example's own test checks its output).
func TestREADMEListsEveryExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^go run \./examples/([a-z0-9_-]+)\b`).FindAllStringSubmatch(string(readme), -1) {
		listed[m[1]] = true
	}
	dirs, err := os.ReadDir("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	present := map[string]bool{}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join("../../examples", d.Name(), "main.go")); d.IsDir() && err == nil {
			present[d.Name()] = true
		}
	}
	for name := range present {
		if !listed[name] {
			t.Errorf("examples/%s is not in the README", name)
		}
	}
	for name := range listed {
		if !present[name] {
			t.Errorf("the README runs examples/%s, which does not exist", name)
		}
	}
	if len(present) < 8 {
		t.Errorf("%d examples found, want at least the 8 the README lists", len(present))
	}
}

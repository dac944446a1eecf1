package groovist

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

//go:embed data/all_pronouns.txt
var pronounsTxt string

// MaxPronounsBytes bounds a pronoun list file.
const MaxPronounsBytes = 16 << 20

// Pronouns is the list of noun phrases GROOViST drops before scoring
// (data/all_pronouns.txt). It is immutable and safe for concurrent use.
type Pronouns struct {
	set map[string]bool
}

// DefaultPronouns returns GROOViST's own list (121 lines, "i" and "I" both
// listed), embedded in this package.
func DefaultPronouns() *Pronouns {
	p, _ := ReadPronouns(strings.NewReader(pronounsTxt))
	return p
}

// ReadPronouns reads one pronoun per line, each stripped of surrounding
// whitespace, as utils.py reads all_pronouns.txt.
func ReadPronouns(r io.Reader) (*Pronouns, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPronounsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("pronouns: %w", err)
	}
	if len(data) > MaxPronounsBytes {
		return nil, fmt.Errorf("pronouns: more than %d bytes", MaxPronounsBytes)
	}
	p := &Pronouns{set: map[string]bool{}}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		p.set[strings.TrimFunc(line, pyunicode.IsSpace)] = true
	}
	return p, nil
}

// LoadPronouns reads a pronoun list file (see ReadPronouns).
func LoadPronouns(path string) (*Pronouns, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pronouns: %w", err)
	}
	defer f.Close()
	p, err := ReadPronouns(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Contains reports whether np is, as a whole, a listed pronoun. Matches the
// reference implementation, which tests `NP not in pronouns` on the whole
// string, so "it" is dropped and "it all" is kept.
func (p *Pronouns) Contains(np string) bool { return p.set[np] }

// Filter returns the phrases GROOViST scores: in order, each phrase that is
// not a listed pronoun and not already kept.
func (p *Pronouns) Filter(nps []string) []string {
	kept := make([]string, 0, len(nps))
	seen := make(map[string]bool, len(nps))
	for _, np := range nps {
		if seen[np] || p.set[np] {
			continue
		}
		seen[np] = true
		kept = append(kept, np)
	}
	return kept
}

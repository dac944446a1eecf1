package story

import (
	"fmt"
	"iter"
)

// Sequence is one image sequence of a Suite: the images to be told, the
// human reference stories (optional) and the story each system wrote.
type Sequence struct {
	// ID identifies the sequence; each system's story for it has this id.
	ID string
	// Images are the sequence's images in story order.
	Images []Image
	// References are human stories for the sequence, possibly none.
	References []string
	// Stories maps a system name to the story it wrote; every system of
	// the suite has one.
	Stories map[string]string
}

// Suite is the input of a system comparison: image sequences, each with
// optional human references and one story per system, in file order. Build
// it with NewSuite or read it with LoadSuite / LoadSuiteDir. It is safe for
// concurrent reads.
type Suite struct {
	systems   []string
	sequences []Sequence
	index     map[string]int
}

// NewSuite checks and assembles a suite: systems must be non-empty and
// distinct, sequence ids distinct and non-empty, and every sequence must
// hold a story for every system and none for an unknown one.
func NewSuite(systems []string, sequences []Sequence) (*Suite, error) {
	if len(systems) == 0 {
		return nil, fmt.Errorf("a suite needs at least one system")
	}
	seen := map[string]bool{}
	for _, sys := range systems {
		if sys == "" {
			return nil, fmt.Errorf("empty system name")
		}
		if seen[sys] {
			return nil, fmt.Errorf("system %q appears twice", sys)
		}
		seen[sys] = true
	}
	s := &Suite{systems: append([]string(nil), systems...), index: map[string]int{}}
	for _, seq := range sequences {
		if seq.ID == "" {
			return nil, fmt.Errorf("sequence with an empty id")
		}
		if _, dup := s.index[seq.ID]; dup {
			return nil, fmt.Errorf("sequence %q appears twice", seq.ID)
		}
		for _, sys := range systems {
			if _, ok := seq.Stories[sys]; !ok {
				return nil, fmt.Errorf("sequence %q has no story of system %q", seq.ID, sys)
			}
		}
		for sys := range seq.Stories {
			if !seen[sys] {
				return nil, fmt.Errorf("sequence %q has a story of unknown system %q", seq.ID, sys)
			}
		}
		s.index[seq.ID] = len(s.sequences)
		s.sequences = append(s.sequences, seq)
	}
	return s, nil
}

// Systems returns the system names in suite order.
func (s *Suite) Systems() []string { return append([]string(nil), s.systems...) }

// Len returns the number of sequences.
func (s *Suite) Len() int { return len(s.sequences) }

// At returns the i-th sequence in suite order.
func (s *Suite) At(i int) Sequence { return s.sequences[i] }

// Get returns the sequence with the given id.
func (s *Suite) Get(id string) (Sequence, bool) {
	i, ok := s.index[id]
	if !ok {
		return Sequence{}, false
	}
	return s.sequences[i], true
}

// All iterates over the sequences in suite order.
func (s *Suite) All() iter.Seq2[int, Sequence] {
	return func(yield func(int, Sequence) bool) {
		for i, seq := range s.sequences {
			if !yield(i, seq) {
				return
			}
		}
	}
}

// HasReferences reports whether every sequence has at least one human
// reference, which the reference-based metrics need.
func (s *Suite) HasReferences() bool {
	for _, seq := range s.sequences {
		if len(seq.References) == 0 {
			return false
		}
	}
	return len(s.sequences) > 0
}

// System returns the stories of one system as a Set in suite order, each
// story carrying its sequence's id and images.
func (s *Suite) System(name string) (*Set, error) {
	found := false
	for _, sys := range s.systems {
		found = found || sys == name
	}
	if !found {
		return nil, fmt.Errorf("no system %q in the suite (systems: %q)", name, s.systems)
	}
	set := &Set{}
	for _, seq := range s.sequences {
		if err := set.Add(Story{ID: seq.ID, Text: seq.Stories[name], Images: seq.Images}); err != nil {
			return nil, err
		}
	}
	return set, nil
}

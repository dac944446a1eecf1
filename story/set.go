package story

import (
	"fmt"
	"iter"
)

// Set is a collection of stories keyed by id that keeps the order in which
// they were added (the order of the input file). The zero value is an empty
// set ready to use. A Set is not safe for concurrent modification; reading
// it from several goroutines is safe.
type Set struct {
	stories []Story
	index   map[string]int
}

// NewSet returns a set of the given stories in the given order; a repeated
// or empty id is an error.
func NewSet(stories ...Story) (*Set, error) {
	s := &Set{}
	for _, st := range stories {
		if err := s.Add(st); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Add appends a story; a repeated or empty id is an error and leaves the set
// unchanged.
func (s *Set) Add(st Story) error {
	if st.ID == "" {
		return fmt.Errorf("empty story id")
	}
	if _, dup := s.index[st.ID]; dup {
		return fmt.Errorf("id %q appears twice", st.ID)
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[st.ID] = len(s.stories)
	s.stories = append(s.stories, st)
	return nil
}

// Len returns the number of stories.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.stories)
}

// At returns the i-th story in set order.
func (s *Set) At(i int) Story { return s.stories[i] }

// Get returns the story with the given id.
func (s *Set) Get(id string) (Story, bool) {
	if s == nil {
		return Story{}, false
	}
	i, ok := s.index[id]
	if !ok {
		return Story{}, false
	}
	return s.stories[i], true
}

// IDs returns the story ids in set order.
func (s *Set) IDs() []string {
	ids := make([]string, s.Len())
	for i := range ids {
		ids[i] = s.stories[i].ID
	}
	return ids
}

// Stories returns the stories in set order. The slice is a copy; the
// stories' Images slices are shared with the set.
func (s *Set) Stories() []Story {
	if s == nil {
		return nil
	}
	return append([]Story(nil), s.stories...)
}

// All iterates over the stories in set order with their positions.
func (s *Set) All() iter.Seq2[int, Story] {
	return func(yield func(int, Story) bool) {
		for i := 0; i < s.Len(); i++ {
			if !yield(i, s.stories[i]) {
				return
			}
		}
	}
}

// Texts returns the story texts in set order.
func (s *Set) Texts() []string {
	texts := make([]string, s.Len())
	for i := range texts {
		texts[i] = s.stories[i].Text
	}
	return texts
}

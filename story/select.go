package story

import "fmt"

// UnknownIDError is Select's error for an id the set does not hold.
type UnknownIDError struct{ ID string }

// Error implements error.
func (e *UnknownIDError) Error() string { return fmt.Sprintf("story %q is not in the set", e.ID) }

// Select returns the stories with the given ids, in the order of ids (a
// story may be asked for twice); no ids selects every story, in set order.
// An id the set does not hold is an *UnknownIDError.
func (s *Set) Select(ids []string) ([]Story, error) {
	if len(ids) == 0 {
		return s.Stories(), nil
	}
	out := make([]Story, 0, len(ids))
	for _, id := range ids {
		st, ok := s.Get(id)
		if !ok {
			return nil, &UnknownIDError{ID: id}
		}
		out = append(out, st)
	}
	return out, nil
}

// Texts returns the texts of stories, in order: the input of the batch
// scorers that take plain texts (rovist.NonRedundancyAll, rovist.NounsAll).
func Texts(stories []Story) []string {
	texts := make([]string, len(stories))
	for i, st := range stories {
		texts[i] = st.Text
	}
	return texts
}

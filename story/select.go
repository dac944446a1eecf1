package story

import (
	"cmp"
	"errors"
	"fmt"
)

// UnknownIDError is the error of Select and LoadSelection for an id the
// set does not hold; File is the file LoadSelection read.
type UnknownIDError struct{ ID, File string }

// Error implements error.
func (e *UnknownIDError) Error() string {
	return fmt.Sprintf("story %q is not in %s", e.ID, cmp.Or(e.File, "the set"))
}

// LoadSelection reads the stories of the JSON file at path (LoadJSON) and
// selects ids (Select); an id the file lacks is an *UnknownIDError, a
// file without stories a *ParseError.
func LoadSelection(path string, ids []string, opts ReadOptions) ([]Story, error) {
	set, err := LoadJSON(path, opts)
	if err != nil {
		return nil, err
	}
	stories, err := set.Select(ids)
	if u := (*UnknownIDError)(nil); errors.As(err, &u) {
		u.File = path
	} else if len(stories) == 0 {
		return nil, &ParseError{File: path, Err: errors.New("no stories")}
	}
	return stories, err
}

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

// IDs returns the ids of stories, in order, beside Texts for the batch
// functions that take both (tokenize.EncodeIDs).
func IDs(stories []Story) []string {
	ids := make([]string, len(stories))
	for i, st := range stories {
		ids[i] = st.ID
	}
	return ids
}

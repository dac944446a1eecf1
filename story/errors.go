package story

import "fmt"

// ParseError reports a problem with one input: the file (or the name the
// caller gave the data), the story id when the problem is within a story,
// and what is wrong.
type ParseError struct {
	File string
	ID   string
	Err  error
}

// Error implements error.
func (e *ParseError) Error() string {
	switch {
	case e.ID != "" && e.File != "":
		return fmt.Sprintf("%s: story %q: %v", e.File, e.ID, e.Err)
	case e.ID != "":
		return fmt.Sprintf("story %q: %v", e.ID, e.Err)
	case e.File != "":
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

package stylem

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
)

// CorpusFormatError is ReadCorpus's error for a format name it does not
// know.
type CorpusFormatError struct {
	Format string // the name given
}

// Error names the format and the ones there are.
func (e *CorpusFormatError) Error() string {
	return fmt.Sprintf("unknown format %q (want jsonl or personality-captions)", e.Format)
}

// ReadCorpus reads a corpus in the named layout with that reader's
// defaults: "jsonl" (ReadCorpusJSONL: one {"style", "caption", "image"}
// object per line) or "personality-captions" (ReadPersonalityCaptions:
// the ParlAI JSON list, filtered as the reference's main()). Another name
// is a *CorpusFormatError, before anything is read.
func ReadCorpus(r io.Reader, format string) ([]Record, error) {
	switch format {
	case "jsonl":
		return ReadCorpusJSONL(r, limits.Limits{})
	case "personality-captions":
		return ReadPersonalityCaptions(r, PersonalityCaptionsOptions{})
	}
	return nil, &CorpusFormatError{Format: format}
}

package story

import (
	"bufio"
	"encoding/json"
	"io"
)

// WriteJSONLinesFile writes to w, one JSON line each, the values lines
// makes of each batch of the {id: story} file at path (EachBatchFile), so
// that memory is bounded by a batch. HTML characters are left unescaped,
// as Python's json.dumps writes them. An error, of lines or of reading,
// stops the output: lines still in the 64 KiB buffer then are dropped.
func WriteJSONLinesFile[T any](w io.Writer, path string, ro ReadOptions, bo BatchOptions, lines func(batch []Story) ([]T, error)) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err := EachBatchFile(path, ro, bo, func(batch []Story) error {
		out, err := lines(batch)
		for i := range out {
			if err := enc.Encode(out[i]); err != nil {
				return err
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

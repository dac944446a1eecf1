package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
)

// maxInputBytes bounds every input file the command reads, so that a wrong
// path (a model checkpoint, a device) fails fast instead of exhausting memory.
const maxInputBytes = 1 << 30

// Float is a float64 that marshals in shortest round-trip form
// (strconv.FormatFloat(x, 'g', -1, 64)) and as null when NaN or infinite,
// since JSON has no literal for them.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(x, 'g', -1, 64)), nil
}

// formatFloat writes x for CSV output: shortest round-trip, "NaN" when undefined.
func formatFloat(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// readFile reads a whole input file, refusing files above maxInputBytes.
func readFile(path string) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Size() > maxInputBytes {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxInputBytes)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}

// writeJSON writes v as indented JSON followed by a newline. Map keys come
// out sorted, so output is deterministic.
func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

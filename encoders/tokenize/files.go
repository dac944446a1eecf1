package tokenize

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// Size limits of the files a tokenizer reads: a vocabulary or model file
// larger than these is rejected before it is read whole.
const (
	// MaxModelFileBytes bounds vocab.txt, spiece.model, vocab.json and
	// merges.txt (the largest real ones are about 1 MB).
	MaxModelFileBytes = 64 << 20
	// MaxConfigFileBytes bounds tokenizer_config.json and
	// special_tokens_map.json.
	MaxConfigFileBytes = 1 << 20
	// MaxGzipRatio bounds how many times its compressed size a gzipped
	// model or config file may inflate to (beyond a 1 MiB floor), so a
	// small gzip bomb fails after a small allocation: vocabularies and
	// models compress 1.5 to 5 times, far below it.
	MaxGzipRatio = 64
)

// readModelFile reads dir/name, or dir/name.gz when only the gzipped copy
// exists, refusing more than limit bytes (after decompression).
//
// The size is known before the buffer is allocated, so a file over the
// limit fails after a small, fixed allocation and one within it is read into
// a single buffer of its exact size: a plain file's size comes from Stat, a
// gzipped file is inflated once into io.Discard to count its bytes (a few
// milliseconds for a 1 MB vocabulary) and once into the buffer. Reading
// into a growing buffer instead would allocate two to four times the limit
// before failing (27 MiB for a 5.8 MB bound under the race detector).
func readModelFile(dir, name string, limit int64) ([]byte, error) {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	gz := false
	if errors.Is(err, fs.ErrNotExist) {
		if g, gerr := os.Open(path + ".gz"); gerr == nil {
			f, err, gz, path = g, nil, true, path+".gz"
		}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !gz {
		if st.Size() > limit {
			return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), limit)
		}
		return readExactly(f, path, st.Size())
	}
	if bound := max(1<<20, MaxGzipRatio*st.Size()); bound < limit {
		limit = bound
		path += fmt.Sprintf(" (%d compressed bytes, at most %d× that inflated)", st.Size(), MaxGzipRatio)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n > limit {
		return nil, fmt.Errorf("%s: larger than the %d-byte limit", path, limit)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := zr.Reset(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	return readExactly(zr, path, n)
}

// readExactly reads the n bytes r is known to hold into one buffer, and
// fails if r holds more (the file changed between the two reads).
func readExactly(r io.Reader, path string, n int64) ([]byte, error) {
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var one [1]byte
	if m, _ := r.Read(one[:]); m > 0 {
		return nil, fmt.Errorf("%s: changed while being read (longer than its %d bytes)", path, n)
	}
	return data, nil
}

// hfConfig holds tokenizer_config.json with special_tokens_map.json laid
// over it, as from_pretrained merges them.
type hfConfig map[string]json.RawMessage

// loadHFConfig reads the two optional JSON files of a model directory.
func loadHFConfig(dir string) (hfConfig, error) {
	cfg := hfConfig{}
	for _, name := range []string{"tokenizer_config.json", "special_tokens_map.json"} {
		data, err := readModelFile(dir, name, MaxConfigFileBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		for k, v := range m {
			cfg[k] = v
		}
	}
	return cfg, nil
}

// token returns a special token given as a string or as an AddedToken
// object {"content": …}, or def when absent or null.
func (c hfConfig) token(key, def string) string {
	raw, ok := c[key]
	if !ok {
		return def
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Content *string `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Content != nil {
		return *obj.Content
	}
	return def
}

// boolean returns a boolean setting, or def when absent or null.
func (c hfConfig) boolean(key string, def bool) bool {
	var b *bool
	if raw, ok := c[key]; ok && json.Unmarshal(raw, &b) == nil && b != nil {
		return *b
	}
	return def
}

// integer returns an integer setting (HF writes 1e30 for "no limit"), or def
// when absent, null or not positive.
func (c hfConfig) integer(key string, def int) int {
	var f *float64
	if raw, ok := c[key]; ok && json.Unmarshal(bytes.TrimSpace(raw), &f) == nil && f != nil && *f > 0 {
		if *f >= math.MaxInt32 {
			return math.MaxInt32
		}
		return int(*f)
	}
	return def
}

// loadTokenizer reads the model files of dir (each within
// MaxModelFileBytes, gzipped copies accepted) and its HF config, and builds
// a tokenizer from them with build; errors name the family, the file and
// the directory.
func loadTokenizer[T any](dir, family string, files []string, build func(data [][]byte, cfg hfConfig) (T, error)) (T, error) {
	var zero T
	data := make([][]byte, len(files))
	for i, name := range files {
		d, err := readModelFile(dir, name, MaxModelFileBytes)
		if err != nil {
			return zero, fmt.Errorf("%s %s: %w", family, name, err)
		}
		data[i] = d
	}
	cfg, err := loadHFConfig(dir)
	if err != nil {
		return zero, fmt.Errorf("%s config: %w", family, err)
	}
	t, err := build(data, cfg)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", dir, err)
	}
	return t, nil
}

// tokenAt returns tokens[id], or "" when id is out of range.
func tokenAt(tokens []string, id int) string {
	if id < 0 || id >= len(tokens) {
		return ""
	}
	return tokens[id]
}

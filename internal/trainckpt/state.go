package trainckpt

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// maxStateFile bounds the trainer_state.json read into memory.
const maxStateFile = 16 << 20

// WriteState writes state as indented JSON to dir/StateFile.
func WriteState(dir string, state any) error {
	data, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, StateFile), data, 0o644)
}

// ReadState decodes dir/StateFile (at most 16 MiB) into state.
func ReadState(dir string, state any) error {
	path := filepath.Join(dir, StateFile)
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() > maxStateFile {
		return fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxStateFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, state); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Finite returns &v, or nil for NaN and ±Inf, which JSON cannot hold (the
// state writes them as null).
func Finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// Or returns *v, or def when v is nil (a null in the state).
func Or(v *float64, def float64) float64 {
	if v == nil {
		return def
	}
	return *v
}

// ReadLatest resolves dir with Latest (a checkpoint folder, or the newest
// one in it) and decodes that folder's state into state; it returns the
// folder. kind names the training in the error for a dir without any
// checkpoint ("vg training", "pre-training", …).
func ReadLatest(dir, kind string, state any) (string, error) {
	latest, ok := Latest(dir)
	if !ok {
		return "", fmt.Errorf("%s holds no %s checkpoint (%s)", dir, kind, StateFile)
	}
	return latest, ReadState(latest, state)
}

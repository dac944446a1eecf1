package encoders

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// maxConfigBytes bounds config.json.
const maxConfigBytes = 1 << 20

// LoadConfig decodes dir/config.json into v, one of the *Config types (or
// any struct matching the HF config it reads), with a size limit.
func LoadConfig(dir string, v any) error {
	path := filepath.Join(dir, "config.json")
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() > maxConfigBytes {
		return fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxConfigBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// loadModel reads dir/config.json into a C, opens the weights of dir (see
// checkpoint.OpenDir) and builds the model; the weights are copied, so the
// checkpoint is closed again.
func loadModel[C any, M any](dir string, opts []Options, build func(C, *checkpoint.State, ...Options) (M, error)) (M, error) {
	var zero M
	var cfg C
	if err := LoadConfig(dir, &cfg); err != nil {
		return zero, err
	}
	st, err := checkpoint.OpenDir(dir)
	if err != nil {
		return zero, err
	}
	defer st.Close()
	m, err := build(cfg, st, opts...)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", dir, err)
	}
	return m, nil
}

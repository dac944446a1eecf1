package vrank

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// Model is a Vrank story-pair regressor: a BERT encoder and Linear(H, 1) on
// its CLS feature, predicting the ranking gap of a story pair. Its weights
// are held in memory once: the prediction encoder is built over them
// without a copy. It is immutable and safe for concurrent use.
type Model struct {
	cfg Config
	tok *tokenize.BERT
	// tokFiles are the tokenizer files of the folder the model came from,
	// written again by Save.
	tokFiles map[string][]byte
	// weights are every parameter in layout order, for Save and the
	// trainers; enc runs predictions over them, built on first use (a model
	// loaded only to be trained or saved never needs it).
	weights []checkpoint.Float32Tensor
	// opts choose the backend the prediction encoder runs on.
	opts    encoders.Options
	encOnce sync.Once
	enc     *encoders.BERT
	encErr  error
	closed  atomic.Bool
}

// Encoder returns the prediction encoder (the BERT without the head),
// built on first use over the model's weights, on the backend the model
// was loaded for (Load's options; default: the CPU).
func (m *Model) Encoder() (*encoders.BERT, error) {
	if m.closed.Load() {
		return nil, errClosed
	}
	m.encOnce.Do(func() { m.enc, m.encErr = buildEncoder(m.cfg, m.weights, m.opts) })
	return m.enc, m.encErr
}

// Close releases the prediction encoder's weights on its backend (device
// memory on a GPU), if it was built. The model must not predict
// afterwards; its weights in memory (Weights, Save) stay usable.
func (m *Model) Close() error {
	if m.closed.Swap(true) {
		return nil
	}
	m.encOnce.Do(func() { m.encErr = errClosed })
	if m.enc != nil {
		return m.enc.Close()
	}
	return nil
}

var errClosed = errors.New("the model was closed")

// Files of a model folder.
const (
	configFile  = "config.json"
	weightsFile = "model.safetensors"
)

// tokenizerFiles are copied from the source folder on Save.
var tokenizerFiles = []string{"vocab.txt", "vocab.txt.gz", "tokenizer_config.json", "special_tokens_map.json"}

// maxSmallFile bounds config.json and the tokenizer files read into memory.
const maxSmallFile = 64 << 20

// Config returns the model's configuration.
func (m *Model) Config() Config { return m.cfg }

// Load loads a trained Vrank model from a folder as Save writes it (and as
// the reference fixture's model/ folder is laid out): config.json with a
// "vrank_head" entry, model.safetensors (or any weights checkpoint.OpenDir
// reads) holding "bert.*" and "regression_layer.*", and the WordPiece
// tokenizer files (vocab.txt, tokenizer_config.json). Predictions run on
// the backend opts choose (default: the CPU; a GPU through
// encoders/compute/device); Close releases it there.
func Load(dir string, opts ...encoders.Options) (*Model, error) {
	data, err := readSmall(filepath.Join(dir, configFile))
	if err != nil {
		return nil, err
	}
	cfg, hasHead, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, configFile), err)
	}
	if !hasHead {
		return nil, fmt.Errorf("%s has no \"vrank_head\" entry: it is not a trained Vrank model (start training from an encoder with NewFromEncoder)", filepath.Join(dir, configFile))
	}
	m, err := loadDir(dir, cfg, nil)
	if err != nil {
		return nil, err
	}
	if len(opts) > 0 {
		m.opts = opts[len(opts)-1]
	}
	return m, nil
}

// NewFromEncoder starts a model for training from a pretrained BERT (e.g.
// princeton-nlp/sup-simcse-bert-base-uncased) in a HuggingFace folder: the
// encoder's weights (with or without a "bert." prefix) and a new head,
// initialised as torch's nn.Linear does (uniform in ±1/√H) from seed. cfg's
// Feature, Encoding and MaxLength select the options; its BERT field is
// ignored (the folder's config.json is used).
func NewFromEncoder(dir string, cfg Config, seed int64) (*Model, error) {
	data, err := readSmall(filepath.Join(dir, configFile))
	if err != nil {
		return nil, err
	}
	enc, _, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, configFile), err)
	}
	cfg.BERT = enc.BERT
	if err := validate(cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return loadDir(dir, cfg, rand.New(rand.NewSource(seed)))
}

// NewRandom returns a model with random weights (BERT's initialisation:
// normal(0, 0.02) weights, zero biases, unit LayerNorm) and the tokenizer of
// vocabDir, for training from scratch, tests and benchmarks.
func NewRandom(cfg Config, vocabDir string, seed int64) (*Model, error) {
	if err := validate(cfg); err != nil {
		return nil, err
	}
	tok, files, err := loadTokenizer(vocabDir)
	if err != nil {
		return nil, err
	}
	ws := layout(cfg)
	initRandom(ws, rand.New(rand.NewSource(seed)), 0.02)
	return newModel(cfg, tok, files, ws), nil
}

// loadDir reads the tokenizer and weights of dir. With newHead set, the
// head is created from it instead of read.
func loadDir(dir string, cfg Config, newHead *rand.Rand) (*Model, error) {
	tok, files, err := loadTokenizer(dir)
	if err != nil {
		return nil, err
	}
	st, err := checkpoint.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("model folder %s has no readable weights: %w", dir, err)
	}
	defer st.Close()
	var skip func(string) bool
	if newHead != nil {
		skip = isHead
	}
	ws, err := readWeights(st, cfg, skip)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if newHead != nil {
		initHead(ws, cfg.BERT.HiddenSize, newHead)
	}
	return newModel(cfg, tok, files, ws), nil
}

// newModel wraps weights in layout order as a model.
func newModel(cfg Config, tok *tokenize.BERT, files map[string][]byte, ws []checkpoint.Float32Tensor) *Model {
	return &Model{cfg: cfg, tok: tok, tokFiles: files, weights: ws}
}

// Weights returns a copy of every weight under its checkpoint name
// ("bert.…", "regression_layer.…"), in state_dict order: what a trainer
// (vrank/train) starts from. WithWeights takes such a list back.
func (m *Model) Weights() []checkpoint.Float32Tensor {
	out := make([]checkpoint.Float32Tensor, len(m.weights))
	for i, t := range m.weights {
		out[i] = checkpoint.Float32Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: slices.Clone(t.Data)}
	}
	return out
}

// WithWeights returns a model of m's configuration and tokenizer with the
// given weights: the names and shapes Weights lists, in any order. The
// model takes the slices over without copying them; the caller must not
// change them afterwards. It predicts on m's backend.
func (m *Model) WithWeights(ws []checkpoint.Float32Tensor) (*Model, error) {
	byName := make(map[string]checkpoint.Float32Tensor, len(ws))
	for _, t := range ws {
		byName[t.Name] = t
	}
	want := layout(m.cfg)
	if len(byName) != len(ws) || len(ws) != len(want) {
		return nil, fmt.Errorf("%d weights (%d names) given, the configuration has %d", len(ws), len(byName), len(want))
	}
	for i, w := range want {
		t, ok := byName[w.Name]
		if !ok {
			return nil, fmt.Errorf("no weight %q given", w.Name)
		}
		if !slices.Equal(t.Shape, w.Shape) || len(t.Data) != len(w.Data) {
			return nil, fmt.Errorf("weight %q has shape %v and %d values, the configuration needs %v", w.Name, t.Shape, len(t.Data), w.Shape)
		}
		want[i] = t
	}
	w := newModel(m.cfg, m.tok, m.tokFiles, want)
	w.opts = m.opts
	return w, nil
}

// Tokenizer returns the model's WordPiece tokenizer.
func (m *Model) Tokenizer() *tokenize.BERT { return m.tok }

// TokenizerFiles returns a copy of the tokenizer files Save writes (e.g.
// vocab.txt, tokenizer_config.json), by file name.
func (m *Model) TokenizerFiles() map[string][]byte {
	out := make(map[string][]byte, len(m.tokFiles))
	for k, v := range m.tokFiles {
		out[k] = slices.Clone(v)
	}
	return out
}

// buildEncoder builds the prediction encoder over the weights in memory
// through BERT's parameter walk (encoders.NewBERTFrom) onto the backend
// opts choose; the CPU encoder adopts their slices (SharedParamWeights),
// so the model holds each weight once and no file is written.
func buildEncoder(cfg Config, ws []checkpoint.Float32Tensor, opts encoders.Options) (*encoders.BERT, error) {
	ps := make([]nn.Param[float32], len(ws))
	for i, w := range ws {
		ps[i] = nn.Param[float32]{Name: w.Name, Shape: w.Shape, Data: w.Data}
	}
	enc, err := encoders.NewBERTFrom(cfg.BERT, encoders.SharedParamWeights(ps), opts)
	if err != nil {
		return nil, err
	}
	return enc, nil
}

// exportTensors lists the tensors of a saved model: every weight and, as
// transformers 4.29 stores it, the int64 position_ids buffer.
func exportTensors(cfg Config, ws []checkpoint.Float32Tensor) []safetensors.Tensor {
	var out []safetensors.Tensor
	for _, t := range ws {
		out = append(out, safetensors.Tensor{Name: t.Name, Shape: t.Shape, F32: t.Data})
	}
	return append(out, positionIDs(cfg.BERT.MaxPositionEmbeddings))
}

// positionIDs is transformers' int64 "bert.embeddings.position_ids" buffer
// [1, n] that BERT checkpoints carry beside the weights.
func positionIDs(n int) safetensors.Tensor {
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	return safetensors.Tensor{Name: bertPrefix + "embeddings.position_ids", Shape: []int{1, n}, I64: ids}
}

// Save writes the model to dir (created if needed) as a folder a user can
// share and Load reads: config.json, model.safetensors and the tokenizer
// files. Each file is written to a temporary file and renamed, so an
// interrupted Save never leaves a half-written file.
func (m *Model) Save(dir string) error {
	return saveFolder(dir, m.cfg, m.weights, m.tokFiles)
}

func saveFolder(dir string, cfg Config, ws []checkpoint.Float32Tensor, tokFiles map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	conf, err := cfg.marshal()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, configFile), conf); err != nil {
		return err
	}
	for name, data := range tokFiles {
		if err := writeAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, weightsFile), exportTensors(cfg, ws), map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

func writeAtomic(path string, data []byte) error {
	err := safetensors.AtomicWrite(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	return nil
}

// loadTokenizer loads the WordPiece tokenizer of dir and keeps its files.
func loadTokenizer(dir string) (*tokenize.BERT, map[string][]byte, error) {
	tok, err := tokenize.LoadBERT(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("tokenizer: %w", err)
	}
	files := map[string][]byte{}
	for _, name := range tokenizerFiles {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		data, err := readSmall(path)
		if err != nil {
			return nil, nil, fmt.Errorf("tokenizer: %w", err)
		}
		files[name] = data
	}
	return tok, files, nil
}

// readSmall reads a file of at most maxSmallFile bytes.
func readSmall(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxSmallFile {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxSmallFile)
	}
	return os.ReadFile(path)
}

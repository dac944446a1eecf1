package vrank

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sync"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// Model is a Vrank story-pair regressor: a BERT encoder and Linear(H, 1) on
// its CLS feature, predicting the ranking gap of a story pair. It is
// immutable and safe for concurrent use.
type Model struct {
	cfg Config
	tok *tokenize.BERT
	// tokFiles are the tokenizer files of the folder the model came from,
	// written again by Save.
	tokFiles map[string][]byte
	// p holds the weights for Save and for training; enc runs predictions,
	// built on first use (a model loaded only to be trained never needs it).
	p       *params[float32]
	encOnce sync.Once
	enc     *encoders.BERT
	encErr  error
}

// encoder returns the prediction encoder, building it on first use.
func (m *Model) encoder() (*encoders.BERT, error) {
	m.encOnce.Do(func() { m.enc, m.encErr = buildEncoder(m.cfg, m.p) })
	return m.enc, m.encErr
}

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
// tokenizer files (vocab.txt, tokenizer_config.json).
func Load(dir string) (*Model, error) {
	data, err := readSmall(filepath.Join(dir, configFile))
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	cfg, hasHead, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", filepath.Join(dir, configFile), err)
	}
	if !hasHead {
		return nil, fmt.Errorf("vrank: %s has no \"vrank_head\" entry: it is not a trained Vrank model (start training from an encoder with NewFromEncoder)", filepath.Join(dir, configFile))
	}
	return loadDir(dir, cfg, nil)
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
		return nil, fmt.Errorf("vrank: %w", err)
	}
	enc, _, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", filepath.Join(dir, configFile), err)
	}
	cfg.BERT = enc.BERT
	if err := validate(cfg); err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", dir, err)
	}
	return loadDir(dir, cfg, rand.New(rand.NewSource(seed)))
}

// NewRandom returns a model with random weights (BERT's initialisation:
// normal(0, 0.02) weights, zero biases, unit LayerNorm) and the tokenizer of
// vocabDir, for training from scratch, tests and benchmarks.
func NewRandom(cfg Config, vocabDir string, seed int64) (*Model, error) {
	if err := validate(cfg); err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	tok, files, err := loadTokenizer(vocabDir)
	if err != nil {
		return nil, err
	}
	p := newParams[float32](cfg.BERT, cfg.Feature == FeaturePooler)
	p.initRandom(rand.New(rand.NewSource(seed)), 0.02)
	return newModel(cfg, tok, files, p)
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
		return nil, fmt.Errorf("vrank: model folder %s has no readable weights: %w", dir, err)
	}
	defer st.Close()
	var p *params[float32]
	if newHead != nil {
		p, err = readEncoderParams(st, cfg)
		if err == nil {
			bound := 1 / math.Sqrt(float64(cfg.BERT.HiddenSize))
			for i := range p.head.W {
				p.head.W[i] = float32((2*newHead.Float64() - 1) * bound)
			}
			p.head.B[0] = float32((2*newHead.Float64() - 1) * bound)
		}
	} else {
		p, err = readParams(st, cfg.BERT, cfg.Feature == FeaturePooler)
	}
	if err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", dir, err)
	}
	return newModel(cfg, tok, files, p)
}

// readEncoderParams reads the encoder part of the parameters (everything
// but the head).
func readEncoderParams(st *checkpoint.State, cfg Config) (*params[float32], error) {
	if err := checkSizes(st, cfg.BERT); err != nil {
		return nil, err
	}
	p := newParams[float32](cfg.BERT, cfg.Feature == FeaturePooler)
	prefixed := st.Has(bertPrefix + "embeddings.word_embeddings.weight")
	for _, t := range p.tensors() {
		if t.name == headName+".weight" || t.name == headName+".bias" {
			continue
		}
		name := t.name
		if !prefixed {
			name = name[len(bertPrefix):]
		}
		info, ok := st.Info(name)
		if !ok {
			return nil, fmt.Errorf("checkpoint has no tensor %q", name)
		}
		if !sameShape(info.Shape, t.shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, the configuration needs %v", name, info.Shape, t.shape)
		}
		if err := st.ReadFloat32(name, t.data); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
	}
	return p, nil
}

// newModel wraps parameters as a model.
func newModel(cfg Config, tok *tokenize.BERT, files map[string][]byte, p *params[float32]) (*Model, error) {
	return &Model{cfg: cfg, tok: tok, tokFiles: files, p: p}, nil
}

// buildEncoder builds an encoders.BERT with the parameters' weights. The
// encoders package builds models from checkpoints only, so the weights go
// through a temporary safetensors file, the same writer Save uses.
func buildEncoder(cfg Config, p *params[float32]) (*encoders.BERT, error) {
	f, err := os.CreateTemp("", "vrank-*.safetensors")
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	name := f.Name()
	defer os.Remove(name)
	err = safetensors.Write(f, exportTensors(cfg, p), map[string]string{"format": "pt"})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	st, err := checkpoint.Open(name)
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	defer st.Close()
	enc, err := encoders.NewBERT(cfg.BERT, st)
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	return enc, nil
}

// exportTensors lists the tensors of a saved model: every parameter and, as
// transformers 4.29 stores it, the int64 position_ids buffer.
func exportTensors(cfg Config, p *params[float32]) []safetensors.Tensor {
	var out []safetensors.Tensor
	for _, t := range p.tensors() {
		out = append(out, safetensors.Tensor{Name: t.name, Shape: t.shape, F32: t.data})
	}
	n := cfg.BERT.MaxPositionEmbeddings
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	return append(out, safetensors.Tensor{Name: bertPrefix + "embeddings.position_ids", Shape: []int{1, n}, I64: ids})
}

// Save writes the model to dir (created if needed) as a folder a user can
// share and Load reads: config.json, model.safetensors and the tokenizer
// files. Each file is written to a temporary file and renamed, so an
// interrupted Save never leaves a half-written file.
func (m *Model) Save(dir string) error {
	return saveFolder(dir, m.cfg, m.p, m.tokFiles)
}

func saveFolder(dir string, cfg Config, p *params[float32], tokFiles map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("vrank: %w", err)
	}
	conf, err := cfg.marshal()
	if err != nil {
		return fmt.Errorf("vrank: config: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, configFile), conf); err != nil {
		return err
	}
	for name, data := range tokFiles {
		if err := writeAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, weightsFile), exportTensors(cfg, p), map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("vrank: %s: %w", dir, err)
	}
	return nil
}

func writeAtomic(path string, data []byte) error {
	err := safetensors.AtomicWrite(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return fmt.Errorf("vrank: %w", err)
	}
	return nil
}

// loadTokenizer loads the WordPiece tokenizer of dir and keeps its files.
func loadTokenizer(dir string) (*tokenize.BERT, map[string][]byte, error) {
	tok, err := tokenize.LoadBERT(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("vrank: tokenizer: %w", err)
	}
	files := map[string][]byte{}
	for _, name := range tokenizerFiles {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		data, err := readSmall(path)
		if err != nil {
			return nil, nil, fmt.Errorf("vrank: tokenizer: %w", err)
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

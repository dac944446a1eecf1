package rovist

import (
	"fmt"
	"math"
	"os"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// CoherenceModel is RoViST-C's sentence-order classifier: an ALBERT encoder
// (albert-large-v1 in the release) whose pooled output tanh(dense(h_CLS))
// goes through a Linear(hidden, 2) head; softmax index 1 is the probability
// that sentence B follows sentence A. It is immutable and safe for
// concurrent use.
//
// Matches the reference implementation (usydnlp/rovist scripts/rovist_c.py
// SOPClassifier), whose dropout layer is never applied at inference.
type CoherenceModel struct {
	albert *encoders.ALBERT
	tok    *tokenize.ALBERT
	head   linearHead
}

// LoadCoherenceModel loads the released RoViST-C checkpoint
// (sop_model_epoch4.pth.tar, a torch.save archive holding the state_dict
// under "model") and the ALBERT tokenizer and config.json of albertDir (the
// albert-large-v1 folder the reference downloads from the HuggingFace hub:
// config.json and spiece.model). ALBERT runs on the backend opts choose
// (default: the CPU; a GPU through encoders/compute/device); Close
// releases it there.
func LoadCoherenceModel(checkpointPath, albertDir string, opts ...encoders.Options) (*CoherenceModel, error) {
	var cfg encoders.ALBERTConfig
	if err := encoders.LoadConfig(albertDir, &cfg); err != nil {
		return nil, fmt.Errorf("coherence model: %w", err)
	}
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		return nil, fmt.Errorf("coherence model: %w", err)
	}
	if _, err := os.Stat(checkpointPath); err != nil {
		return nil, fmt.Errorf("coherence model: %w", err)
	}
	st, err := checkpoint.Open(checkpointPath)
	if err != nil {
		return nil, fmt.Errorf("coherence model %s: %w", checkpointPath, err)
	}
	defer st.Close()
	m, err := NewCoherenceModel(cfg, st, tok, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w (checkpoint %s)", err, checkpointPath)
	}
	return m, nil
}

// NewCoherenceModel builds the model from an ALBERT configuration, an open
// checkpoint and a tokenizer. st may be the whole torch.save dict (tensors
// under "model.") or the state_dict itself: ALBERT under "albert_model.",
// the head under "linear.". Weights read from a file are copied, so st may
// be closed afterwards; those of an in-memory checkpoint.FromFloat32 state
// are shared, not copied (rovist/train hands its trained weights over so).
// ALBERT runs on the backend opts choose (default: the CPU).
func NewCoherenceModel(cfg encoders.ALBERTConfig, st *checkpoint.State, tok *tokenize.ALBERT, opts ...encoders.Options) (*CoherenceModel, error) {
	if st == nil || tok == nil {
		return nil, fmt.Errorf("coherence model: nil checkpoint or tokenizer")
	}
	root := st
	if !root.Has("linear.weight") && st.Has("model.linear.weight") {
		root = st.Sub("model.")
	}
	if !root.Has("albert_model.embeddings.word_embeddings.weight") {
		return nil, fmt.Errorf("coherence model: the checkpoint has no albert_model.* tensors (not a RoViST-C sop_model checkpoint?)")
	}
	if tok.VocabSize() != cfg.VocabSize {
		return nil, fmt.Errorf("coherence model: the tokenizer has %d pieces, the model's vocab_size is %d", tok.VocabSize(), cfg.VocabSize)
	}
	head, err := readLinearHead(root, "linear", 2, cfg.HiddenSize)
	if err != nil {
		return nil, fmt.Errorf("coherence model: %w", err)
	}
	albert, err := encoders.NewALBERT(cfg, root.Sub("albert_model."), opts...)
	if err != nil {
		return nil, fmt.Errorf("coherence model: %w", err)
	}
	return &CoherenceModel{albert: albert, tok: tok, head: head}, nil
}

// Close releases ALBERT's weights on its backend (device memory on a
// GPU). The model must not be used afterwards.
func (m *CoherenceModel) Close() error { return m.albert.Close() }

// Tokenizer returns the model's ALBERT tokenizer.
func (m *CoherenceModel) Tokenizer() *tokenize.ALBERT { return m.tok }

// Encoder returns the model's ALBERT encoder.
func (m *CoherenceModel) Encoder() *encoders.ALBERT { return m.albert }

// MaxPieces is the longest pair input the model takes, special tokens
// included: the encoder's max_position_embeddings (512 for ALBERT).
func (m *CoherenceModel) MaxPieces() int { return m.albert.Config().MaxPositionEmbeddings }

// logitsAndProb applies the head to one pooled vector and returns the two
// logits and softmax(logits)[1], computed in float32 as torch's softmax
// (exp(x − max) / Σ exp(x − max)).
func (m *CoherenceModel) logitsAndProb(pooled []float32) ([2]float32, float32) {
	var l [2]float32
	m.head.apply(l[:], pooled)
	mx := max(l[0], l[1])
	e0 := float32(math.Exp(float64(l[0] - mx)))
	e1 := float32(math.Exp(float64(l[1] - mx)))
	return l, e1 / (e0 + e1)
}

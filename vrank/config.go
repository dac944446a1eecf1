package vrank

import (
	"encoding/json"
	"fmt"

	"github.com/storyeval/storyeval/encoders"
)

// Feature selects the encoder output the regression head reads.
type Feature int

const (
	// FeatureCLS is the raw CLS hidden state of the last layer (SimCSE's
	// "cls_before_pooler"), the definition the Vrank fixture uses.
	FeatureCLS Feature = iota
	// FeaturePooler is BERT's pooler output tanh(dense(CLS)) (SimCSE's
	// "cls"); the checkpoint must hold the pooler.
	FeaturePooler
)

// String returns the name used in config.json.
func (f Feature) String() string {
	switch f {
	case FeatureCLS:
		return "cls"
	case FeaturePooler:
		return "pooler"
	}
	return fmt.Sprintf("Feature(%d)", int(f))
}

// InputEncoding selects how a story pair becomes one model input.
type InputEncoding int

const (
	// JoinedText encodes the one string story1 + " [SEP] " + story2, the
	// literal [SEP] becoming the separator token, all token types 0, the
	// joined text truncated at its end (the Vrank fixture's definition).
	JoinedText InputEncoding = iota
	// TextPair is BERT's standard pair encoding [CLS] s1 [SEP] s2 [SEP] with
	// token types 0 and 1, truncated longest-first.
	TextPair
)

// String returns the name used in config.json.
func (e InputEncoding) String() string {
	switch e {
	case JoinedText:
		return "joined"
	case TextPair:
		return "pair"
	}
	return fmt.Sprintf("InputEncoding(%d)", int(e))
}

// DefaultMaxLength is the token limit of an encoded pair, special tokens
// included (the fixture's max_length=512).
const DefaultMaxLength = 512

// Config describes a Vrank model: the BERT encoder's configuration, the head
// and how pairs are encoded. It is stored in the model folder's config.json,
// a HuggingFace BertConfig with a "vrank_head" entry.
type Config struct {
	BERT encoders.BERTConfig
	// Feature is the head's input (zero value: the raw CLS state).
	Feature Feature
	// Encoding is the pair encoding (zero value: the joined text).
	Encoding InputEncoding
	// MaxLength bounds the encoded pair (0: DefaultMaxLength, capped at the
	// model's max_position_embeddings).
	MaxLength int
}

// maxLength is the effective token limit.
func (c Config) maxLength() int {
	n := c.MaxLength
	if n <= 0 {
		n = DefaultMaxLength
	}
	if c.BERT.MaxPositionEmbeddings > 0 && n > c.BERT.MaxPositionEmbeddings {
		n = c.BERT.MaxPositionEmbeddings
	}
	return n
}

// headJSON is config.json's "vrank_head" entry.
type headJSON struct {
	Input       string   `json:"input"`
	Type        string   `json:"type"`
	TensorNames []string `json:"tensor_names"`
	Encoding    string   `json:"encoding,omitempty"`
	MaxLength   int      `json:"max_length,omitempty"`
}

const (
	headInputCLS    = "last_hidden_state[:, 0] (CLS)"
	headInputPooler = "pooler_output"
)

// parseConfig reads config.json's bytes. hasHead reports whether it holds a
// vrank_head entry (a trained Vrank model rather than a plain encoder).
func parseConfig(data []byte) (cfg Config, hasHead bool, err error) {
	if err := json.Unmarshal(data, &cfg.BERT); err != nil {
		return cfg, false, err
	}
	var extra struct {
		Head *headJSON `json:"vrank_head"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return cfg, false, err
	}
	if cfg.BERT.LayerNormEps == 0 {
		cfg.BERT.LayerNormEps = 1e-12
	}
	if cfg.BERT.HiddenAct == "" {
		cfg.BERT.HiddenAct = "gelu"
	}
	if extra.Head == nil {
		return cfg, false, validate(cfg)
	}
	h := extra.Head
	switch h.Input {
	case headInputCLS, "", "cls":
		cfg.Feature = FeatureCLS
	case headInputPooler, "pooler":
		cfg.Feature = FeaturePooler
	default:
		return cfg, true, fmt.Errorf("vrank_head.input %q is neither %q nor %q", h.Input, headInputCLS, headInputPooler)
	}
	switch h.Encoding {
	case "", "joined":
		cfg.Encoding = JoinedText
	case "pair":
		cfg.Encoding = TextPair
	default:
		return cfg, true, fmt.Errorf("vrank_head.encoding %q is neither \"joined\" nor \"pair\"", h.Encoding)
	}
	cfg.MaxLength = h.MaxLength
	return cfg, true, validate(cfg)
}

// validate checks what the training passes rely on.
func validate(c Config) error {
	b := c.BERT
	for _, s := range []struct {
		name string
		v    int
	}{{"vocab_size", b.VocabSize}, {"hidden_size", b.HiddenSize}, {"num_hidden_layers", b.NumHiddenLayers},
		{"num_attention_heads", b.NumAttentionHeads}, {"intermediate_size", b.IntermediateSize},
		{"max_position_embeddings", b.MaxPositionEmbeddings}, {"type_vocab_size", b.TypeVocabSize}} {
		if s.v <= 0 {
			return fmt.Errorf("%s = %d, want a positive number", s.name, s.v)
		}
	}
	if b.HiddenSize%b.NumAttentionHeads != 0 {
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", b.HiddenSize, b.NumAttentionHeads)
	}
	if b.HiddenAct != "gelu" {
		return fmt.Errorf("hidden_act %q: training supports only \"gelu\" (erf)", b.HiddenAct)
	}
	if b.PositionEmbeddingType != "" && b.PositionEmbeddingType != "absolute" {
		return fmt.Errorf("position_embedding_type %q is not supported (only absolute)", b.PositionEmbeddingType)
	}
	if c.Encoding == TextPair && b.TypeVocabSize < 2 {
		return fmt.Errorf("pair encoding needs type_vocab_size ≥ 2, have %d", b.TypeVocabSize)
	}
	return nil
}

// marshal returns config.json for a saved model.
func (c Config) marshal() ([]byte, error) {
	b, err := json.Marshal(c.BERT)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	input := headInputCLS
	if c.Feature == FeaturePooler {
		input = headInputPooler
	}
	m["model_type"] = "bert"
	m["architectures"] = []string{"VrankRegressor"}
	m["pad_token_id"] = 0
	m["vrank_head"] = headJSON{Input: input, Type: "Linear(hidden_size, 1)",
		TensorNames: []string{headName + ".weight", headName + ".bias"},
		Encoding:    c.Encoding.String(), MaxLength: c.MaxLength}
	return json.MarshalIndent(m, "", "  ")
}

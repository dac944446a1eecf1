package rovist

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/dense"
)

// GroundingModel is RoViST-VG's region-to-phrase model: a ViT image
// encoder (google/vit-base-patch16-224-in21k in the release) whose
// pooler_output goes through Linear(hidden, 1024) and tanh, and a text side
// that maps a 300-d GloVe vector through Linear(300, 1024) and tanh; both
// embeddings are L2-normalised before their cosine is taken. It is
// immutable and safe for concurrent use.
//
// Matches the reference implementation (usydnlp/rovist scripts/rovist_vg.py
// Region2PhraseModel with word_emb_type="static" and activate_fn Tanh).
type GroundingModel struct {
	vit       *encoders.ViT
	proc      *imageproc.Processor
	imageHead linearHead
	textHead  linearHead
}

// LoadGroundingModel loads the released RoViST-VG checkpoint
// (r2p_model_epoch2.pth.tar, a torch.save archive holding the state_dict
// under "model") with the config.json and preprocessor_config.json of
// vitDir (the google/vit-base-patch16-224-in21k folder the reference
// downloads; without a preprocessor_config.json, the ViTFeatureExtractor
// defaults apply). The ViT runs on the backend opts choose (default: the
// CPU; a GPU through encoders/compute/device); Close releases it there.
func LoadGroundingModel(checkpointPath, vitDir string, opts ...encoders.Options) (*GroundingModel, error) {
	var cfg encoders.ViTConfig
	if err := encoders.LoadConfig(vitDir, &cfg); err != nil {
		return nil, fmt.Errorf("grounding model: %w", err)
	}
	pcfg, err := imageproc.LoadProcessorConfig(filepath.Join(vitDir, "preprocessor_config.json"))
	if errors.Is(err, fs.ErrNotExist) {
		pcfg, err = imageproc.DefaultConfig(imageproc.ViT)
	}
	if err != nil {
		return nil, fmt.Errorf("grounding model: %w", err)
	}
	if _, err := os.Stat(checkpointPath); err != nil {
		return nil, fmt.Errorf("grounding model: %w", err)
	}
	st, err := checkpoint.Open(checkpointPath)
	if err != nil {
		return nil, fmt.Errorf("grounding model %s: %w", checkpointPath, err)
	}
	defer st.Close()
	m, err := NewGroundingModel(cfg, pcfg, st, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w (checkpoint %s)", err, checkpointPath)
	}
	return m, nil
}

// NewGroundingModel builds the model from a ViT configuration, the image
// preprocessing and an open checkpoint: the whole torch.save dict (tensors
// under "model.") or the state_dict itself (image_encoder.image_model.*,
// image_encoder.linear.*, text_encoder.linear.*). Weights read from a file
// are copied, so st may be closed afterwards; those of an in-memory
// checkpoint.FromFloat32 state are shared, not copied (rovist/train hands
// its trained weights over so). The ViT runs on the backend opts choose
// (default: the CPU).
func NewGroundingModel(cfg encoders.ViTConfig, pcfg imageproc.ProcessorConfig, st *checkpoint.State, opts ...encoders.Options) (*GroundingModel, error) {
	if st == nil {
		return nil, fmt.Errorf("grounding model: nil checkpoint")
	}
	root := st
	if !root.Has("text_encoder.linear.weight") && st.Has("model.text_encoder.linear.weight") {
		root = st.Sub("model.")
	}
	if !root.Has("image_encoder.image_model.embeddings.cls_token") {
		return nil, fmt.Errorf("grounding model: the checkpoint has no image_encoder.image_model.* tensors (not a RoViST-VG r2p_model checkpoint?)")
	}
	if pcfg.Kind != imageproc.ViT {
		return nil, fmt.Errorf("grounding model: the image processor is %v, want ViT", pcfg.Kind)
	}
	// The ViT takes images of its image_size only (HF's ViT raises
	// ValueError for others without interpolate_pos_encoding), so a larger
	// preprocessing size would only allocate what the model refuses.
	if s := pcfg.Size; pcfg.DoResize && (s.Height != cfg.ImageSize || s.Width != cfg.ImageSize) {
		return nil, fmt.Errorf("grounding model: the preprocessor's size %dx%d differs from the ViT's image_size %d", s.Height, s.Width, cfg.ImageSize)
	}
	proc, err := imageproc.NewProcessor(pcfg)
	if err != nil {
		return nil, fmt.Errorf("grounding model: %w", err)
	}
	vit, err := encoders.NewViT(cfg, root.Sub("image_encoder.image_model."), opts...)
	if err != nil {
		return nil, fmt.Errorf("grounding model: %w", err)
	}
	img, err := readLinearHead(root, "image_encoder.linear", 0, cfg.HiddenSize)
	if err == nil {
		var txt linearHead
		if txt, err = readLinearHead(root, "text_encoder.linear", img.out, 0); err == nil {
			return &GroundingModel{vit: vit, proc: proc, imageHead: img, textHead: txt}, nil
		}
	}
	_ = vit.Close() // the head's error is the one to report
	return nil, fmt.Errorf("grounding model: %w", err)
}

// Close releases the ViT's weights on its backend (device memory on a
// GPU). The model must not be used afterwards.
func (m *GroundingModel) Close() error { return m.vit.Close() }

// WordDim is the width of the word vectors the text side takes (300 for
// GloVe 6B).
func (m *GroundingModel) WordDim() int { return m.textHead.in }

// EmbeddingDim is the width of the joint embedding space (1024).
func (m *GroundingModel) EmbeddingDim() int { return m.imageHead.out }

// Encoder returns the ViT image encoder.
func (m *GroundingModel) Encoder() *encoders.ViT { return m.vit }

// Preprocess turns a decoded crop into the ViT's pixel values
// (ViTFeatureExtractor: resize to the model size with Pillow's bilinear
// filter, x/255, (x − mean)/std).
func (m *GroundingModel) Preprocess(img *imageproc.RGB) (imageproc.PixelValues, error) {
	return m.proc.Preprocess(img, nil)
}

// EmbedImages returns the unit-length joint embeddings of preprocessed
// crops: normalize(tanh(W_i · pooler_output + b_i)).
func (m *GroundingModel) EmbedImages(ctx context.Context, imgs []imageproc.PixelValues) ([][]float32, error) {
	raw, err := m.imageFeatures(ctx, imgs)
	if err != nil {
		return nil, err
	}
	for _, v := range raw {
		normalize(v)
	}
	return raw, nil
}

// imageFeatures returns tanh(W_i · pooler_output + b_i), not normalised.
func (m *GroundingModel) imageFeatures(ctx context.Context, imgs []imageproc.PixelValues) ([][]float32, error) {
	if len(imgs) == 0 {
		return nil, nil
	}
	out, err := m.vit.Forward(ctx, imgs, encoders.ForwardOptions{})
	if err != nil {
		return nil, fmt.Errorf("grounding: %w", err)
	}
	if out.PoolerOutput == nil {
		return nil, fmt.Errorf("grounding: the ViT checkpoint has no pooler, which RoViST-VG projects")
	}
	pooled := dense.Data(out.PoolerOutput).([]float32)
	H := m.imageHead.in
	res := make([][]float32, len(imgs))
	for i := range res {
		v := make([]float32, m.imageHead.out)
		m.imageHead.apply(v, pooled[i*H:(i+1)*H])
		applyTanh(v)
		res[i] = v
	}
	return res, nil
}

// EmbedWord returns the unit-length joint embedding of a word vector:
// normalize(tanh(W_t · v + b_t)).
func (m *GroundingModel) EmbedWord(vec []float32) ([]float32, error) {
	v, err := m.wordFeatures(vec)
	if err != nil {
		return nil, err
	}
	normalize(v)
	return v, nil
}

// wordFeatures returns tanh(W_t · v + b_t), not normalised.
func (m *GroundingModel) wordFeatures(vec []float32) ([]float32, error) {
	if len(vec) != m.textHead.in {
		return nil, fmt.Errorf("grounding: a %d-d word vector, the model takes %d", len(vec), m.textHead.in)
	}
	v := make([]float32, m.textHead.out)
	m.textHead.apply(v, vec)
	applyTanh(v)
	return v, nil
}

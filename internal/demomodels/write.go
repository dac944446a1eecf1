package demomodels

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"

	"github.com/storyeval/storyeval/encoders"
	encrandmodel "github.com/storyeval/storyeval/encoders/randmodel"
	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/vrank"
)

// DemonstrationLabel is how a report labels the scores of these models.
const DemonstrationLabel = "random weights: shows the pipeline, not quality"

// Seed is the fixed seed every file is drawn from.
const Seed = 2026

// Sizes of the demonstration inputs: each sequence gets ImagesPerSequence
// images of ImageWidth × ImageHeight pixels, each image RegionsPerImage
// regions.
const (
	ImagesPerSequence = 5
	RegionsPerImage   = 3
	ImageWidth        = 96
	ImageHeight       = 64
)

// Demo is what Write wrote.
type Demo struct {
	// Suite is the suite given, each sequence with its synthetic images
	// (ids are integers, as RoViST-VG requires; files under Dir/images).
	Suite *story.Suite
	// Models is the models folder (compare.ModelsLayout's layout);
	// Regions the regions CSV (image_id,bbox) and Crops its crops folder.
	Models, Regions, Crops string
}

// Write writes the demonstration inputs for suite into dir (created):
// images for every sequence, their regions and crops, and a models folder
// whose tokenizers cover the suite's words and whose GloVe rows and idf
// table cover its nouns. Sequences that already name images keep them.
func Write(dir string, suite *story.Suite) (*Demo, error) {
	d := &Demo{Models: filepath.Join(dir, "models")}
	var err error
	if d.Suite, err = writeImages(filepath.Join(dir, "images"), suite); err != nil {
		return nil, fmt.Errorf("demo images: %w", err)
	}
	var ids []string
	for _, seq := range d.Suite.All() {
		for _, im := range seq.Images {
			ids = append(ids, im.ID)
		}
	}
	if d.Regions, d.Crops, err = randmodel.WriteRegionCrops(dir, ids, RegionsPerImage, Seed); err != nil {
		return nil, fmt.Errorf("demo regions: %w", err)
	}
	if err := writeModels(d.Models, d.Suite); err != nil {
		return nil, fmt.Errorf("demo models: %w", err)
	}
	return d, nil
}

// writeImages writes ImagesPerSequence gradient JPEGs per sequence into
// dir, named by integer ids made of the sequence's position and the
// image's (1000001, 1000002, …), and returns the suite with them.
func writeImages(dir string, suite *story.Suite) (*story.Suite, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(Seed))
	var seqs []story.Sequence
	for i, seq := range suite.All() {
		if len(seq.Images) == 0 {
			for k := range ImagesPerSequence {
				id := fmt.Sprint(1000000 + 1000*i + k + 1)
				path := filepath.Join(dir, id+".jpg")
				if err := randmodel.WriteGradientJPEG(path, ImageWidth, ImageHeight, rng); err != nil {
					return nil, err
				}
				seq.Images = append(seq.Images, story.Image{ID: id, Path: path})
			}
		}
		seqs = append(seqs, seq)
	}
	return story.NewSuite(suite.Systems(), seqs)
}

// texts returns every story and reference of suite.
func texts(suite *story.Suite) []string {
	var out []string
	for _, seq := range suite.All() {
		out = append(out, seq.References...)
		for _, sys := range suite.Systems() {
			out = append(out, seq.Stories[sys])
		}
	}
	return out
}

// writeModels writes the models folder: tiny configurations (two layers,
// hidden size 32) with random weights, in the files and names the layout
// lists.
func writeModels(dir string, suite *story.Suite) error {
	ws := words(texts(suite))
	if err := writeRoViSTC(filepath.Join(dir, "rovist"), ws); err != nil {
		return fmt.Errorf("RoViST-C: %w", err)
	}
	if err := writeRoViSTVG(filepath.Join(dir, "rovist"), suite); err != nil {
		return fmt.Errorf("RoViST-VG: %w", err)
	}
	if err := writeCLIP(filepath.Join(dir, "clip"), ws); err != nil {
		return fmt.Errorf("CLIP: %w", err)
	}
	if err := writeVrank(filepath.Join(dir, "vrank"), ws); err != nil {
		return fmt.Errorf("Vrank: %w", err)
	}
	return nil
}

// Tiny transformer sizes shared by the demo's models.
const (
	hidden       = 32
	intermediate = 64
	layers       = 2
	heads        = 2
	maxPositions = 512
	// The vision towers see 64×64 images in 16×16 patches instead of
	// 224×224: resizing every crop to 224 pixels would be most of the
	// demo's time.
	imageSize = 64
	patchSize = 16
)

func writeRoViSTC(dir string, ws []string) error {
	albertDir := filepath.Join(dir, "albert-large-v1")
	if err := os.MkdirAll(albertDir, 0o755); err != nil {
		return err
	}
	n, err := writeSentencePiece(albertDir, ws)
	if err != nil {
		return err
	}
	cfg := encoders.ALBERTConfig{VocabSize: n, EmbeddingSize: 16, HiddenSize: hidden, NumHiddenLayers: layers, NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: heads, IntermediateSize: intermediate, HiddenAct: "gelu_new", MaxPositionEmbeddings: maxPositions, TypeVocabSize: 2, LayerNormEps: 1e-12}
	// ALBERTConfig has no model_type; the tokenizer and config readers
	// take Hugging Face's config.json, which names it.
	if err := writeJSON(filepath.Join(albertDir, "config.json"), map[string]any{"model_type": "albert", "vocab_size": cfg.VocabSize,
		"embedding_size": cfg.EmbeddingSize, "hidden_size": cfg.HiddenSize, "num_hidden_layers": cfg.NumHiddenLayers, "num_hidden_groups": 1,
		"inner_group_num": 1, "num_attention_heads": cfg.NumAttentionHeads, "intermediate_size": cfg.IntermediateSize, "hidden_act": cfg.HiddenAct,
		"max_position_embeddings": cfg.MaxPositionEmbeddings, "type_vocab_size": cfg.TypeVocabSize, "layer_norm_eps": cfg.LayerNormEps}); err != nil {
		return err
	}
	return encrandmodel.WriteSafetensors(filepath.Join(dir, "sop_model_epoch4.safetensors"), encrandmodel.RoViSTCParams(cfg), Seed+1)
}

func writeRoViSTVG(dir string, suite *story.Suite) error {
	vitDir := filepath.Join(dir, "vit-base-patch16-224-in21k")
	if err := os.MkdirAll(vitDir, 0o755); err != nil {
		return err
	}
	cfg := encrandmodel.ViTB16In21k()
	cfg.HiddenSize, cfg.IntermediateSize, cfg.NumHiddenLayers, cfg.NumAttentionHeads = hidden, intermediate, layers, heads
	cfg.ImageSize, cfg.PatchSize = imageSize, patchSize
	if err := writeJSON(filepath.Join(vitDir, "config.json"), cfg); err != nil {
		return err
	}
	pre := encrandmodel.ViTIn21kPreprocessor()
	pre["size"] = imageSize
	if err := writeJSON(filepath.Join(vitDir, "preprocessor_config.json"), pre); err != nil {
		return err
	}
	if err := encrandmodel.WriteSafetensors(filepath.Join(dir, "r2p_model_epoch2.safetensors"), encrandmodel.RoViSTVGParams(cfg), Seed+2); err != nil {
		return err
	}
	// GloVe rows and idf weights for exactly the nouns RoViST-VG
	// extracts from the stories (and GloVe's "unk"), as the release's
	// files cover the VIST nouns.
	var stories []story.Story
	for _, sys := range suite.Systems() {
		set, err := suite.System(sys)
		if err != nil {
			return err
		}
		stories = append(stories, set.Stories()...)
	}
	nouns, err := rovist.StoryNouns(stories, nil)
	if err != nil {
		return err
	}
	var all []string
	for _, ns := range nouns {
		all = append(all, ns...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if err := randmodel.WriteGloVe(filepath.Join(dir, "glove.6B.300d.txt"), append(slices.Clone(all), rovist.GloVeUnknown), 300, Seed+3); err != nil {
		return err
	}
	return randmodel.WriteIDFPickle(filepath.Join(dir, "idf_dict.pkl"), all, Seed+4)
}

func writeCLIP(dir string, ws []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n, err := writeCLIPBPE(dir, ws)
	if err != nil {
		return err
	}
	cfg := encrandmodel.CLIPB32()
	cfg.ProjectionDim = hidden
	t, v := &cfg.TextConfig, &cfg.VisionConfig
	t.VocabSize = n
	t.HiddenSize, t.IntermediateSize, t.NumHiddenLayers, t.NumAttentionHeads = hidden, intermediate, layers, heads
	v.HiddenSize, v.IntermediateSize, v.NumHiddenLayers, v.NumAttentionHeads = hidden, intermediate, layers, heads
	v.ImageSize, v.PatchSize = imageSize, patchSize
	return encrandmodel.WriteCLIP(dir, cfg, Seed+5)
}

func writeVrank(dir string, ws []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n, err := writeWordPiece(dir, ws)
	if err != nil {
		return err
	}
	cfg := vrank.Config{BERT: encoders.BERTConfig{VocabSize: n, HiddenSize: hidden, NumHiddenLayers: layers, NumAttentionHeads: heads,
		IntermediateSize: intermediate, HiddenAct: "gelu", MaxPositionEmbeddings: maxPositions, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := vrank.NewRandom(cfg, dir, Seed+6)
	if err != nil {
		return err
	}
	return m.Save(dir)
}

// writeJSON writes v as JSON to path.
func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

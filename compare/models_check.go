package compare

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/rovist"
)

// ModelProblem is a file of the layout that was found but cannot be used.
type ModelProblem struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// modelChecks validates each file of the layout (by its layout path,
// whichever alternative name was found) without loading weights: configs
// parse and give the sizes a model needs, checkpoints open (their header
// and tensor index are read; safetensors are mapped, not read), tokenizers
// and preprocessing configs load, the first GloVe row parses, the idf
// table unpickles. A zip bomb of weights or a config of {} is so reported
// instead of enabling the metric.
var modelChecks = map[string]func(path string) error{
	"rovist/sop_model_epoch4.pth.tar":                            checkWeights,
	"rovist/albert-large-v1/config.json":                         checkALBERTConfig,
	"rovist/albert-large-v1/spiece.model":                        func(p string) error { _, err := tokenize.LoadALBERT(filepath.Dir(p)); return err },
	"rovist/r2p_model_epoch2.pth.tar":                            checkWeights,
	"rovist/vit-base-patch16-224-in21k/config.json":              checkViTConfig,
	"rovist/vit-base-patch16-224-in21k/preprocessor_config.json": func(p string) error { _, err := imageproc.LoadProcessorConfig(p); return err },
	"rovist/glove.6B.300d.txt":                                   checkGloVeFirstRow,
	"rovist/idf_dict.pkl":                                        func(p string) error { _, err := rovist.LoadIDF(p, limits.Limits{}); return err },
	"clip/config.json":                                           checkCLIPConfig,
	"clip/model.safetensors":                                     checkWeights,
	"clip/vocab.json":                                            checkCLIPTokenizer,
	"clip/merges.txt":                                            checkCLIPTokenizer,
	"vrank/config.json":                                          checkBERTConfig,
	"vrank/model.safetensors":                                    checkWeights,
	"vrank/vocab.txt":                                            func(p string) error { _, err := tokenize.LoadBERT(filepath.Dir(p)); return err },
}

func checkCLIPTokenizer(path string) error {
	_, err := tokenize.LoadCLIP(filepath.Dir(path), tokenize.CLIPOptions{})
	return err
}

// checkWeights opens a checkpoint (reading its header and index only) and
// requires at least one tensor.
func checkWeights(path string) error {
	st, err := checkpoint.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	if st.Len() == 0 {
		return fmt.Errorf("%s: no tensors", path)
	}
	return nil
}

// sizeField is a size a config must give as a positive number.
type sizeField struct {
	name  string
	value int
}

// requirePositive reports the first size of a config that is missing or
// not positive.
func requirePositive(path string, fields ...sizeField) error {
	for _, f := range fields {
		if f.value <= 0 {
			return fmt.Errorf("%s: %s is %d or missing; want a positive number", path, f.name, f.value)
		}
	}
	return nil
}

func checkALBERTConfig(path string) error {
	var c encoders.ALBERTConfig
	if err := encoders.LoadConfig(filepath.Dir(path), &c); err != nil {
		return err
	}
	return requirePositive(path, sizeField{"vocab_size", c.VocabSize}, sizeField{"embedding_size", c.EmbeddingSize},
		sizeField{"hidden_size", c.HiddenSize}, sizeField{"num_hidden_layers", c.NumHiddenLayers},
		sizeField{"num_attention_heads", c.NumAttentionHeads}, sizeField{"intermediate_size", c.IntermediateSize},
		sizeField{"max_position_embeddings", c.MaxPositionEmbeddings})
}

func checkBERTConfig(path string) error {
	var c encoders.BERTConfig
	if err := encoders.LoadConfig(filepath.Dir(path), &c); err != nil {
		return err
	}
	return requirePositive(path, sizeField{"vocab_size", c.VocabSize}, sizeField{"hidden_size", c.HiddenSize},
		sizeField{"num_hidden_layers", c.NumHiddenLayers}, sizeField{"num_attention_heads", c.NumAttentionHeads},
		sizeField{"intermediate_size", c.IntermediateSize}, sizeField{"max_position_embeddings", c.MaxPositionEmbeddings})
}

func checkViTConfig(path string) error {
	var c encoders.ViTConfig
	if err := encoders.LoadConfig(filepath.Dir(path), &c); err != nil {
		return err
	}
	return requirePositive(path, sizeField{"hidden_size", c.HiddenSize}, sizeField{"num_hidden_layers", c.NumHiddenLayers},
		sizeField{"num_attention_heads", c.NumAttentionHeads}, sizeField{"intermediate_size", c.IntermediateSize},
		sizeField{"image_size", c.ImageSize}, sizeField{"patch_size", c.PatchSize})
}

func checkCLIPConfig(path string) error {
	var c encoders.CLIPConfig
	if err := encoders.LoadConfig(filepath.Dir(path), &c); err != nil {
		return err
	}
	t, v := c.TextConfig, c.VisionConfig
	return requirePositive(path, sizeField{"projection_dim", c.ProjectionDim},
		sizeField{"text_config.hidden_size", t.HiddenSize}, sizeField{"text_config.num_hidden_layers", t.NumHiddenLayers},
		sizeField{"text_config.num_attention_heads", t.NumAttentionHeads}, sizeField{"text_config.vocab_size", t.VocabSize},
		sizeField{"text_config.max_position_embeddings", t.MaxPositionEmbeddings},
		sizeField{"vision_config.hidden_size", v.HiddenSize}, sizeField{"vision_config.num_hidden_layers", v.NumHiddenLayers},
		sizeField{"vision_config.num_attention_heads", v.NumAttentionHeads}, sizeField{"vision_config.image_size", v.ImageSize},
		sizeField{"vision_config.patch_size", v.PatchSize})
}

// checkGloVeFirstRow parses the first row of a GloVe file, plain or
// gzipped, as the loader does; the rest is not read (the file is about
// 1 GB).
func checkGloVeFirstRow(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	line, err := bufio.NewReaderSize(io.LimitReader(r, gloveCheckLineBytes), gloveCheckLineBytes).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	_, err = rovist.ReadGloVe(bytes.NewReader(line), path, nil, rovist.GloVeOptions{})
	return err
}

// gloveCheckLineBytes bounds the GloVe row the check reads: rovist's
// default line limit (rovist.GloVeOptions).
const gloveCheckLineBytes = 1 << 20

package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ModelFile is one file (or folder) of the models folder layout: its path
// relative to the folder, the names it may also have, what it is and where
// the original release publishes it.
type ModelFile struct {
	Path   string   `json:"path"`
	Alts   []string `json:"alternatives,omitempty"`
	What   string   `json:"what"`
	Source string   `json:"source"`
}

// ModelMetric is a learned metric and the files it needs.
type ModelMetric struct {
	Metric string      `json:"metric"`
	Files  []ModelFile `json:"files"`
}

// ModelsLayout returns the documented layout of a models folder (the
// README's "Models folder"): per learned metric, the files it needs.
// Optional inputs with an embedded default (the Brysbaert concreteness
// ratings) are not listed. The slice is the caller's.
func ModelsLayout() []ModelMetric {
	out := make([]ModelMetric, len(modelsLayout))
	for i, m := range modelsLayout {
		out[i] = ModelMetric{Metric: m.Metric, Files: slices.Clone(m.Files)}
	}
	return out
}

// modelsLayout is what ModelsLayout returns.
var modelsLayout = []ModelMetric{
	{"RoViST-C", []ModelFile{
		{"rovist/sop_model_epoch4.pth.tar", []string{"rovist/sop_model_epoch4.safetensors"}, "RoViST coherence checkpoint (ALBERT + linear head)", "usydnlp/rovist release (README: pretrained models), file sop_model_epoch4.pth.tar"},
		{"rovist/albert-large-v1/config.json", nil, "ALBERT config", "Hugging Face model albert-large-v1, config.json"},
		{"rovist/albert-large-v1/spiece.model", nil, "ALBERT SentencePiece model", "Hugging Face model albert-large-v1, spiece.model"},
	}},
	{"RoViST-VG", []ModelFile{
		{"rovist/r2p_model_epoch2.pth.tar", []string{"rovist/r2p_model_epoch2.safetensors"}, "RoViST grounding checkpoint (ViT + linear heads)", "usydnlp/rovist release (README: pretrained models), file r2p_model_epoch2.pth.tar"},
		{"rovist/vit-base-patch16-224-in21k/config.json", nil, "ViT config", "Hugging Face model google/vit-base-patch16-224-in21k, config.json"},
		{"rovist/vit-base-patch16-224-in21k/preprocessor_config.json", nil, "ViT preprocessing", "Hugging Face model google/vit-base-patch16-224-in21k, preprocessor_config.json"},
		{"rovist/glove.6B.300d.txt", []string{"rovist/glove.6B.300d.txt.gz"}, "GloVe 6B 300-d vectors (text format)", "Stanford GloVe, glove.6B.zip, file glove.6B.300d.txt (gzip it to save space)"},
		{"rovist/idf_dict.pkl", nil, "idf weights of the VIST nouns (pickled dict)", "usydnlp/rovist release, file idf_dict.pkl"},
	}},
	{"GROOViST", []ModelFile{
		{"clip/config.json", nil, "CLIP config", "Hugging Face model openai/clip-vit-base-patch32, config.json"},
		{"clip/model.safetensors", []string{"clip/pytorch_model.bin"}, "CLIP weights", "Hugging Face model openai/clip-vit-base-patch32, model.safetensors"},
		{"clip/vocab.json", []string{"clip/vocab.json.gz"}, "CLIP BPE vocabulary", "Hugging Face model openai/clip-vit-base-patch32, vocab.json"},
		{"clip/merges.txt", []string{"clip/merges.txt.gz"}, "CLIP BPE merges", "Hugging Face model openai/clip-vit-base-patch32, merges.txt"},
	}},
	{"CLIPScore", []ModelFile{
		{"clip/config.json", nil, "CLIP config", "Hugging Face model openai/clip-vit-base-patch32, config.json"},
		{"clip/model.safetensors", []string{"clip/pytorch_model.bin"}, "CLIP weights", "Hugging Face model openai/clip-vit-base-patch32, model.safetensors"},
		{"clip/vocab.json", []string{"clip/vocab.json.gz"}, "CLIP BPE vocabulary", "Hugging Face model openai/clip-vit-base-patch32, vocab.json"},
		{"clip/merges.txt", []string{"clip/merges.txt.gz"}, "CLIP BPE merges", "Hugging Face model openai/clip-vit-base-patch32, merges.txt"},
	}},
	{"Vrank", []ModelFile{
		{"vrank/config.json", nil, "Vrank BERT config", "no public Vrank weights: train one with 'storyeval vrank train' on the VHED CSV (it writes this folder)"},
		{"vrank/model.safetensors", nil, "Vrank weights", "written by 'storyeval vrank train'"},
		{"vrank/vocab.txt", nil, "BERT WordPiece vocabulary", "written by 'storyeval vrank train' (from the starting encoder, e.g. princeton-nlp/sup-simcse-bert-base-uncased)"},
	}},
}

// ModelStatus is the check of one learned metric in a models folder.
type ModelStatus struct {
	Metric  string      `json:"metric"`
	Enabled bool        `json:"enabled"`
	Found   []string    `json:"found"`
	Missing []ModelFile `json:"missing"`
	// Invalid lists the files found that fail their check (modelChecks).
	Invalid []ModelProblem `json:"invalid"`
}

// CheckModels looks up every file of ModelsLayout in dir and validates
// those found without loading weights (configs parse and give the sizes a
// model needs, checkpoints open, tokenizers load, the first GloVe row
// parses, the idf table unpickles); a metric is enabled when all its files
// are found and valid.
func CheckModels(dir string) ([]ModelStatus, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	var out []ModelStatus
	checked := map[string]error{} // by path: CLIP's files serve two metrics
	for _, m := range modelsLayout {
		s := ModelStatus{Metric: m.Metric, Found: []string{}, Missing: []ModelFile{}, Invalid: []ModelProblem{}}
		for _, f := range m.Files {
			found := ""
			for _, p := range append([]string{f.Path}, f.Alts...) {
				if info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil && info.Mode().IsRegular() && info.Size() > 0 {
					found = p
					break
				}
			}
			if found == "" {
				s.Missing = append(s.Missing, f)
				continue
			}
			s.Found = append(s.Found, found)
			path := filepath.Join(dir, filepath.FromSlash(found))
			err, done := checked[path]
			if check := modelChecks[f.Path]; !done && check != nil {
				err = check(path)
				checked[path] = err
			}
			if err != nil {
				s.Invalid = append(s.Invalid, ModelProblem{Path: found, Error: err.Error()})
			}
		}
		s.Enabled = len(s.Missing) == 0 && len(s.Invalid) == 0
		out = append(out, s)
	}
	return out, nil
}

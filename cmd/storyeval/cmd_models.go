package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

func init() {
	register(command{
		name:    "models",
		summary: "check a models folder: which files were found, which metrics they enable, where to get the missing ones; models convert writes a checkpoint as safetensors",
		run:     runModels,
	})
}

// modelFile is one file (or folder) of the models folder layout: its path
// relative to the folder, the names it may also have, what it is and where
// the original release publishes it.
type modelFile struct {
	Path   string   `json:"path"`
	Alts   []string `json:"alternatives,omitempty"`
	What   string   `json:"what"`
	Source string   `json:"source"`
}

// modelMetric is a metric and the files it needs.
type modelMetric struct {
	Metric string      `json:"metric"`
	Files  []modelFile `json:"files"`
}

// modelsLayout is the documented layout of a models folder (README "Models
// folder"). Optional inputs with an embedded default (the Brysbaert
// concreteness ratings) are not listed.
var modelsLayout = []modelMetric{
	{"RoViST-C", []modelFile{
		{"rovist/sop_model_epoch4.pth.tar", []string{"rovist/sop_model_epoch4.safetensors"}, "RoViST coherence checkpoint (ALBERT + linear head)", "usydnlp/rovist release (README: pretrained models), file sop_model_epoch4.pth.tar"},
		{"rovist/albert-large-v1/config.json", nil, "ALBERT config", "Hugging Face model albert-large-v1, config.json"},
		{"rovist/albert-large-v1/spiece.model", nil, "ALBERT SentencePiece model", "Hugging Face model albert-large-v1, spiece.model"},
	}},
	{"RoViST-VG", []modelFile{
		{"rovist/r2p_model_epoch2.pth.tar", []string{"rovist/r2p_model_epoch2.safetensors"}, "RoViST grounding checkpoint (ViT + linear heads)", "usydnlp/rovist release (README: pretrained models), file r2p_model_epoch2.pth.tar"},
		{"rovist/vit-base-patch16-224-in21k/config.json", nil, "ViT config", "Hugging Face model google/vit-base-patch16-224-in21k, config.json"},
		{"rovist/vit-base-patch16-224-in21k/preprocessor_config.json", nil, "ViT preprocessing", "Hugging Face model google/vit-base-patch16-224-in21k, preprocessor_config.json"},
		{"rovist/glove.6B.300d.txt", []string{"rovist/glove.6B.300d.txt.gz"}, "GloVe 6B 300-d vectors (text format)", "Stanford GloVe, glove.6B.zip, file glove.6B.300d.txt (gzip it to save space)"},
		{"rovist/idf_dict.pkl", nil, "idf weights of the VIST nouns (pickled dict)", "usydnlp/rovist release, file idf_dict.pkl"},
	}},
	{"GROOViST", []modelFile{
		{"clip/config.json", nil, "CLIP config", "Hugging Face model openai/clip-vit-base-patch32, config.json"},
		{"clip/model.safetensors", []string{"clip/pytorch_model.bin"}, "CLIP weights", "Hugging Face model openai/clip-vit-base-patch32, model.safetensors"},
		{"clip/vocab.json", []string{"clip/vocab.json.gz"}, "CLIP BPE vocabulary", "Hugging Face model openai/clip-vit-base-patch32, vocab.json"},
		{"clip/merges.txt", []string{"clip/merges.txt.gz"}, "CLIP BPE merges", "Hugging Face model openai/clip-vit-base-patch32, merges.txt"},
	}},
	{"CLIPScore", []modelFile{
		{"clip/config.json", nil, "CLIP config", "Hugging Face model openai/clip-vit-base-patch32, config.json"},
		{"clip/model.safetensors", []string{"clip/pytorch_model.bin"}, "CLIP weights", "Hugging Face model openai/clip-vit-base-patch32, model.safetensors"},
		{"clip/vocab.json", []string{"clip/vocab.json.gz"}, "CLIP BPE vocabulary", "Hugging Face model openai/clip-vit-base-patch32, vocab.json"},
		{"clip/merges.txt", []string{"clip/merges.txt.gz"}, "CLIP BPE merges", "Hugging Face model openai/clip-vit-base-patch32, merges.txt"},
	}},
	{"Vrank", []modelFile{
		{"vrank/config.json", nil, "Vrank BERT config", "no public Vrank weights: train one with 'storyeval vrank train' on the VHED CSV (it writes this folder)"},
		{"vrank/model.safetensors", nil, "Vrank weights", "written by 'storyeval vrank train'"},
		{"vrank/vocab.txt", nil, "BERT WordPiece vocabulary", "written by 'storyeval vrank train' (from the starting encoder, e.g. princeton-nlp/sup-simcse-bert-base-uncased)"},
	}},
}

// modelsStatus is the check of one metric.
type modelsStatus struct {
	Metric  string      `json:"metric"`
	Enabled bool        `json:"enabled"`
	Found   []string    `json:"found"`
	Missing []modelFile `json:"missing"`
	// Invalid lists the files found that fail their check (modelChecks).
	Invalid []modelProblem `json:"invalid"`
}

// checkModels looks up every file of the layout in dir and validates those
// found (modelChecks); a metric is enabled when all its files are found and
// valid.
func checkModels(dir string) ([]modelsStatus, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	var out []modelsStatus
	checked := map[string]error{} // by path: CLIP's files serve two metrics
	for _, m := range modelsLayout {
		s := modelsStatus{Metric: m.Metric, Found: []string{}, Missing: []modelFile{}, Invalid: []modelProblem{}}
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
				s.Invalid = append(s.Invalid, modelProblem{Path: found, Error: err.Error()})
			}
		}
		s.Enabled = len(s.Missing) == 0 && len(s.Invalid) == 0
		out = append(out, s)
	}
	return out, nil
}

func runModels(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "convert" {
		return runModelsConvert(args[1:], stdout, stderr)
	}
	fs := newFlagSet("models", stderr)
	dir := fs.String("dir", "", "models folder to check (required)")
	format := fs.String("format", "table", "output format: table or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval models -dir DIR [-format table|json]")
		fmt.Fprintln(stderr, "       storyeval models convert -in CHECKPOINT -out FILE.safetensors   (memory-mapped, faster to load)")
		fmt.Fprintln(stderr, "\nLists, for each learned metric, the files of the models folder layout that were found,")
		fmt.Fprintln(stderr, "whether the metric is enabled, and for each missing file where the original release")
		fmt.Fprintln(stderr, "publishes it and the name to give it. Flags go before positional arguments; there are none.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" {
		fs.Usage()
		return errors.New("-dir is required")
	}
	status, err := checkModels(*dir)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		return writeJSON(stdout, status)
	case "table":
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, s := range status {
			state := "enabled"
			if !s.Enabled {
				state = "disabled"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", s.Metric, state, strings.Join(s.Found, ", "))
			for _, m := range s.Missing {
				fmt.Fprintf(w, "\tmissing %s\t%s: %s\n", filepath.Join(*dir, filepath.FromSlash(m.Path)), m.What, m.Source)
			}
			for _, p := range s.Invalid {
				fmt.Fprintf(w, "\tinvalid %s\t%s\n", filepath.Join(*dir, filepath.FromSlash(p.Path)), oneLine(p.Error))
			}
		}
		return w.Flush()
	}
	return fmt.Errorf("-format %q: want table or json", *format)
}

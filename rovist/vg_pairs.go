package rovist

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/words"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

// VGPair is one training example of RoViST-VG: a region of an image and the
// noun phrase that names it (a row of Flickr30k Entities'
// flickr30k_entities_{train,valid}_clean.csv in the original training).
type VGPair struct {
	ImageID string // the image id, as in the regions file
	BBox    string // the bbox text, as in the regions file and crop name
	Phrase  string // the noun phrase
}

// maxVGPairsCSV bounds a pairs file (1 GiB).
const maxVGPairsCSV = 1 << 30

// LoadVGPairsCSV reads training pairs from a CSV file with a header naming
// the columns image_id, bbox and noun_phrase (other columns are allowed).
// As usydnlp/rovist rovist_vg.py main() does with pandas
// drop_duplicates(), a row equal to an earlier one in every column is
// dropped; the order of the first occurrences is kept.
func LoadVGPairsCSV(path string) ([]VGPair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vg pairs: %w", err)
	}
	defer f.Close()
	return ReadVGPairsCSV(io.LimitReader(f, maxVGPairsCSV+1), path)
}

// ReadVGPairsCSV is LoadVGPairsCSV on a reader; name labels errors.
func ReadVGPairsCSV(r io.Reader, name string) ([]VGPair, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("vg pairs %s: empty file", name)
	}
	if err != nil {
		return nil, fmt.Errorf("vg pairs %s: %w", name, err)
	}
	col := map[string]int{"image_id": -1, "bbox": -1, "noun_phrase": -1}
	for i, h := range header {
		h = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		if j, ok := col[h]; ok && j < 0 {
			col[h] = i
		}
	}
	for _, k := range []string{"image_id", "bbox", "noun_phrase"} {
		if col[k] < 0 {
			return nil, fmt.Errorf("vg pairs %s: no %q column in the header %q", name, k, header)
		}
	}
	seen := map[string]bool{}
	var out []VGPair
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("vg pairs %s: %w", name, err)
		}
		key := strings.Join(rec, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		p := VGPair{ImageID: strings.TrimSpace(rec[col["image_id"]]), BBox: rec[col["bbox"]], Phrase: rec[col["noun_phrase"]]}
		if _, err := parseImageID(p.ImageID); err != nil {
			return nil, fmt.Errorf("vg pairs %s line %d: %w", name, line, err)
		}
		if _, ok := regions.ParseBBox(p.BBox); !ok {
			return nil, fmt.Errorf("vg pairs %s line %d: bbox %q is not a list of 4 numbers", name, line, p.BBox)
		}
		if strings.TrimSpace(p.Phrase) == "" {
			return nil, fmt.Errorf("vg pairs %s line %d: empty noun phrase", name, line)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("vg pairs %s: no rows", name)
	}
	return out, nil
}

// VGPairsOfStories keeps the pairs whose image belongs to one of the
// stories of set, in the pairs' order: how a story split (train, valid)
// becomes a split of the region–phrase pairs.
func VGPairsOfStories(set *story.Set, pairs []VGPair) []VGPair {
	ids := map[string]bool{}
	for _, s := range set.All() {
		for _, im := range s.Images {
			ids[im.ID] = true
		}
	}
	var out []VGPair
	for _, p := range pairs {
		if ids[p.ImageID] {
			out = append(out, p)
		}
	}
	return out
}

// VGPhraseWords returns the words of the pairs' phrases (nltk.word_tokenize),
// what LoadGloVe needs to keep.
func VGPhraseWords(pairs []VGPair) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pairs {
		for _, w := range words.Tokenize(p.Phrase) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// PhraseVector returns the text input of a noun phrase: the mean of the
// GloVe vectors of its nltk.word_tokenize tokens, a token GloVe lacks
// counting as the vector of "unk". Matches usydnlp/rovist rovist_vg.py
// Flickr30kEntsLoader.__getitem__ (np.mean over axis 0 of float32 vectors:
// summed in token order in float32, then divided by the count).
func PhraseVector(g *GloVe, phrase string) ([]float32, error) {
	toks := words.Tokenize(phrase)
	if len(toks) == 0 {
		return nil, fmt.Errorf("phrase %q has no words", phrase)
	}
	sum := make([]float32, g.Dim())
	for _, w := range toks {
		v, ok := g.Vector(w)
		if !ok {
			if v, ok = g.Vector(GloVeUnknown); !ok {
				return nil, fmt.Errorf("phrase %q: GloVe has neither %q nor %q", phrase, w, GloVeUnknown)
			}
		}
		for i, x := range v {
			sum[i] += x
		}
	}
	n := float32(len(toks))
	for i := range sum {
		sum[i] /= n
		if math.IsNaN(float64(sum[i])) || math.IsInf(float64(sum[i]), 0) {
			return nil, fmt.Errorf("phrase %q: non-finite mean vector", phrase)
		}
	}
	return sum, nil
}

// VGExample is one region–phrase pair ready for training: the crop and the
// phrase's word vector.
type VGExample struct {
	Crop   RegionCrop
	Vector []float32
}

// VGExamples turns pairs into examples: the crop of each pair is the file
// crops/{image_id}_{bbox}.jpg (decoded when a batch needs it), its vector
// PhraseVector's. Missing crop files are reported here, all at once.
func VGExamples(pairs []VGPair, crops CropFolder, g *GloVe) ([]VGExample, error) {
	out := make([]VGExample, len(pairs))
	var missing []string
	for i, p := range pairs {
		id, err := parseImageID(p.ImageID)
		if err != nil {
			return nil, fmt.Errorf("vg pair %d: %w", i, err)
		}
		path := crops.CropPath(id, story.Region{Label: p.BBox})
		if _, err := os.Stat(path); err != nil {
			if len(missing) < 5 {
				missing = append(missing, path)
			}
			continue
		}
		vec, err := PhraseVector(g, p.Phrase)
		if err != nil {
			return nil, fmt.Errorf("vg pair %d: %w", i, err)
		}
		opts := crops.Decode
		out[i] = VGExample{Vector: vec, Crop: RegionCrop{Key: "file:" + path, Label: p.BBox,
			Load: func() (*imageproc.RGB, error) { return imageproc.DecodeFile(path, opts) }}}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("vg pairs: crop files missing, e.g. %s", strings.Join(missing, ", "))
	}
	return out, nil
}

package sentences

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// englishJSON holds NLTK's pretrained English Punkt parameters in the JSON
// layout of github.com/neurosnap/sentences (data/english.json, MIT licence).
//
//go:embed punkt_english.json.gz
var englishJSON []byte

// Orthographic-context flags, as in punkt.py: where a word type was seen in
// training (beginning of sentence, middle, unknown position) and with which
// case of first letter.
const (
	orthoBegUC = 1 << 1
	orthoMidUC = 1 << 2
	orthoUnkUC = 1 << 3
	orthoBegLC = 1 << 4
	orthoMidLC = 1 << 5
	orthoUnkLC = 1 << 6
	orthoUC    = orthoBegUC | orthoMidUC | orthoUnkUC
	orthoLC    = orthoBegLC | orthoMidLC | orthoUnkLC
)

// params is a trained Punkt model (punkt.py's PunktParameters).
type params struct {
	abbrevTypes  map[string]bool
	collocations map[[2]string]bool
	sentStarters map[string]bool
	orthoContext map[string]int
}

var (
	englishOnce   sync.Once
	englishParams *params
	englishErr    error
)

// english returns the embedded English parameters, decoded on first use.
func english() *params {
	englishOnce.Do(func() {
		englishParams, englishErr = decodeParams(englishJSON)
	})
	if englishErr != nil {
		// The embedded file is part of the build; failing to decode it is a
		// build defect, caught by every test.
		panic("sentences: embedded English Punkt parameters: " + englishErr.Error())
	}
	return englishParams
}

// decodeParams reads gzipped neurosnap-style JSON: AbbrevTypes, SentStarters
// and Collocations are sets (keys with value 1; a collocation key "a,b" is
// split at its first comma) and OrthoContext maps types to flag sums.
func decodeParams(gz []byte) (*params, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("punkt parameters: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("punkt parameters: %w", err)
	}
	var file struct {
		AbbrevTypes  map[string]int
		Collocations map[string]int
		SentStarters map[string]int
		OrthoContext map[string]int
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, fmt.Errorf("punkt parameters: %w", err)
	}
	p := &params{
		abbrevTypes:  make(map[string]bool, len(file.AbbrevTypes)),
		collocations: make(map[[2]string]bool, len(file.Collocations)),
		sentStarters: make(map[string]bool, len(file.SentStarters)),
		orthoContext: file.OrthoContext,
	}
	for k := range file.AbbrevTypes {
		p.abbrevTypes[k] = true
	}
	for k := range file.SentStarters {
		p.sentStarters[k] = true
	}
	for k := range file.Collocations {
		a, b, ok := strings.Cut(k, ",")
		if !ok {
			return nil, fmt.Errorf("punkt parameters: collocation %q has no comma", k)
		}
		p.collocations[[2]string{a, b}] = true
	}
	return p, nil
}

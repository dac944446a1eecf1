package tokenize

import (
	"strings"
	"sync"
	"testing"
)

var (
	loadOnce   sync.Once
	testBERT   *BERT
	testALBERT *ALBERT
	testCLIP   *CLIP
	loadErr    error
)

// loadTestTokenizers loads the three real tokenizers of the fixtures once.
func loadTestTokenizers(t testing.TB) (*BERT, *ALBERT, *CLIP) {
	t.Helper()
	tt := t
	loadOnce.Do(func() {
		for _, g := range goldenFiles(tt) {
			switch {
			case strings.HasPrefix(g.Tokenizer.Class, "BertTokenizer"):
				testBERT, loadErr = LoadBERT(modelDir(tt, g, "vocab.txt"))
			case strings.HasPrefix(g.Tokenizer.Class, "AlbertTokenizer"):
				testALBERT, loadErr = LoadALBERT(modelDir(tt, g, "spiece.model"))
			case strings.HasPrefix(g.Tokenizer.Class, "CLIPTokenizer"):
				testCLIP, loadErr = LoadCLIP(modelDir(tt, g, "vocab.json"), CLIPOptions{})
			}
			if loadErr != nil {
				return
			}
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	if testBERT == nil || testALBERT == nil || testCLIP == nil {
		t.Fatal("the fixtures lack a BERT, ALBERT or CLIP golden file")
	}
	return testBERT, testALBERT, testCLIP
}

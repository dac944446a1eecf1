package tokenize

import (
	"strings"
	"testing"
)

func TestByName(t *testing.T) {
	for name, want := range map[string]Padding{"none": NoPadding, "longest": PadLongest, "max_length": PadMaxLength} {
		if got, err := PaddingByName(name); err != nil || got != want {
			t.Errorf("PaddingByName(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for name, want := range map[string]CLIPCleaner{"openai": CleanOpenAI, "hf": CleanHF, "hf-noftfy": CleanHFNoFTFY} {
		if got, err := CLIPCleanerByName(name); err != nil || got != want {
			t.Errorf("CLIPCleanerByName(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := PaddingByName("True"); return err }(), `unknown padding "True" (want none, longest or max_length)`},
		{func() error { _, err := CLIPCleanerByName("ftfy"); return err }(), `unknown CLIP cleaner "ftfy"`},
		{func() error { _, err := LoadFamily("gpt2", t.TempDir(), CLIPOptions{}); return err }(), `unknown tokenizer family "gpt2" (want bert, albert or clip)`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", c.err, c.want)
		}
	}
	// Each family's loader runs: an empty folder fails in the loader, not
	// as an unknown family.
	for _, f := range Families() {
		_, err := LoadFamily(f, t.TempDir(), CLIPOptions{})
		if err == nil || strings.Contains(err.Error(), "unknown tokenizer family") {
			t.Errorf("LoadFamily(%q, empty folder): error %v, want the loader's", f, err)
		}
	}
}

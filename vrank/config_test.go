package vrank

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

func TestParseConfigFixture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(e2efixtures.Metric("vrank"), "model", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, hasHead, err := parseConfig(data)
	if err != nil || !hasHead {
		t.Fatalf("config: %v (head %v)", err, hasHead)
	}
	if cfg.Feature != FeatureCLS || cfg.Encoding != JoinedText || cfg.maxLength() != 512 {
		t.Errorf("fixture config read as %+v", cfg)
	}
	out, err := cfg.marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := parseConfig(out)
	if err != nil || again != cfg {
		t.Errorf("config after marshal: %+v (%v), want %+v", again, err, cfg)
	}
}

func TestParseConfigErrors(t *testing.T) {
	base := `"vocab_size":10,"hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,"intermediate_size":4,"max_position_embeddings":8,"type_vocab_size":2`
	for _, tc := range []struct{ in, want string }{
		{`{` + base + `,"hidden_act":"relu"}`, "hidden_act"},
		{`{` + base + `,"vrank_head":{"input":"mean"}}`, "vrank_head.input"},
		{`{` + base + `,"vrank_head":{"encoding":"triple"}}`, "vrank_head.encoding"},
		{`{"vocab_size":10}`, "hidden_size"},
		{`{` + strings.Replace(base, `"num_attention_heads":2`, `"num_attention_heads":3`, 1) + `}`, "multiple"},
		{`[1]`, "cannot unmarshal"},
	} {
		if _, _, err := parseConfig([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join(e2efixtures.Metric("vrank"), "model", "config.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"vrank_head":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _, err := parseConfig(data)
		if err != nil {
			return
		}
		// A configuration that parses must also survive a round trip.
		out, err := cfg.marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := parseConfig(out); err != nil {
			t.Fatalf("marshalled config does not parse: %v", err)
		}
	})
}

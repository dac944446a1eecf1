package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
)

// The embed subcommand decodes, preprocesses and encodes an image end to
// end; the ViT golden images_pooler_output row 0 is that image's output in
// the reference (ViTImageProcessor then ViTModel).
func TestEmbedImageMatchesViTGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"embed", "-model", "../../testdata/encoders/fixtures/vit", "-image", "../../testdata/encoders/fixtures/images/img0.png"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got struct {
		Dim       int       `json:"dim"`
		Embedding []float64 `json:"embedding"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want, err := npy.ReadFile("../../testdata/encoders/fixtures/vit/golden/images_pooler_output.npy")
	if err != nil {
		t.Fatal(err)
	}
	H := want.Shape[1]
	if got.Dim != H || len(got.Embedding) != H {
		t.Fatalf("dim %d, want %d", got.Dim, H)
	}
	for i := 0; i < H; i++ {
		if d := math.Abs(float64(got.Embedding[i]) - float64(want.F32[i])); d > 1e-5 {
			t.Fatalf("embedding[%d] = %g, golden %g", i, got.Embedding[i], want.F32[i])
		}
	}
}

func TestEmbedRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"embed", "-model", "../../testdata/encoders/fixtures/vit"},
		{"embed", "-model", "../../testdata/encoders/fixtures/vit", "-text", "a dog"},
		{"embed", "-model", "../../testdata/encoders/fixtures/nosuch", "-image", "x.png"},
		{"embed", "-model", "../../testdata/encoders/fixtures/vit", "-image", "../../testdata/encoders/fixtures/manifest.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}

// TestEmbedPoolingWithoutPooler: -pooling cls on a BERT without a pooler
// layer (the Vrank fixture's) names the flag value to use instead of the
// library's Pooling constant; cls_before_pooler then works.
func TestEmbedPoolingWithoutPooler(t *testing.T) {
	model := e2efixtures.Metric("vrank") + "/model"
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"embed", "-model", model, "-text", "a dog"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if msg := stderr.String(); !strings.Contains(msg, "-pooling cls: the model in") || !strings.Contains(msg, "use -pooling cls_before_pooler") || strings.Contains(msg, "PoolCLSBeforePooler") {
		t.Errorf("message %q", msg)
	}
	stdout.Reset()
	if code := runMain([]string{"embed", "-model", model, "-text", "a dog", "-pooling", "cls_before_pooler"}, &stdout, &stderr); code != 0 {
		t.Fatalf("cls_before_pooler: exit %d: %s", code, stderr.String())
	}
}

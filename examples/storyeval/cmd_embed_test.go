package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

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
	var got embedOutput
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

package encoders

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
)

// TestEmbedFolderImageMatchesViTGolden: the reference's ViTImageProcessor
// then ViTModel pooler_output of img0.png is row 0 of the ViT golden.
func TestEmbedFolderImageMatchesViTGolden(t *testing.T) {
	const fixtures = "../testdata/encoders/fixtures/"
	got, err := EmbedFolderImage(context.Background(), fixtures+"vit", fixtures+"images/img0.png", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.ReadFile(fixtures + "vit/golden/images_pooler_output.npy")
	if err != nil {
		t.Fatal(err)
	}
	H := want.Shape[1]
	if got.ModelType != "vit" || got.Kind != "pooler_output" || len(got.Vector) != H {
		t.Fatalf("%s %q of dim %d, want vit pooler_output of dim %d", got.ModelType, got.Kind, len(got.Vector), H)
	}
	for i := range H {
		if d := math.Abs(float64(got.Vector[i]) - float64(want.F32[i])); d > 1e-5 {
			t.Fatalf("embedding[%d] = %g, golden %g", i, got.Vector[i], want.F32[i])
		}
	}
	if _, err := EmbedFolderText(context.Background(), fixtures+"vit", "a dog", FolderOptions{}); err == nil || !strings.Contains(err.Error(), `model_type "vit" cannot embed a text`) {
		t.Errorf("text with a ViT: error %v", err)
	}
}

// TestEmbedFolderTextPooling: the Vrank fixture's BERT has no pooler, so
// PoolCLS is ErrNoPooler; PoolCLSBeforePooler is the [CLS] hidden state and
// PoolMean, for a text of one word piece between [CLS] and [SEP], the mean
// of three hidden states — two distinct vectors of the model's width.
func TestEmbedFolderTextPooling(t *testing.T) {
	dir := e2efixtures.Metric("vrank") + "/model"
	ctx := context.Background()
	if _, err := EmbedFolderText(ctx, dir, "dog", FolderOptions{}); !errors.Is(err, ErrNoPooler) {
		t.Fatalf("PoolCLS without a pooler: error %v, want ErrNoPooler", err)
	}
	cls, err := EmbedFolderText(ctx, dir, "dog", FolderOptions{Pooling: PoolCLSBeforePooler})
	if err != nil {
		t.Fatal(err)
	}
	avg, err := EmbedFolderText(ctx, dir, "dog", FolderOptions{Pooling: PoolMean})
	if err != nil {
		t.Fatal(err)
	}
	if cls.Kind != "sentence embedding (cls_before_pooler)" || avg.Kind != "sentence embedding (avg)" || cls.ModelType != "bert" {
		t.Errorf("kinds %q, %q (model_type %s)", cls.Kind, avg.Kind, cls.ModelType)
	}
	if len(cls.Vector) == 0 || len(cls.Vector) != len(avg.Vector) || cls.Vector[0] == avg.Vector[0] {
		t.Errorf("cls %d values, avg %d values, first %v and %v", len(cls.Vector), len(avg.Vector), cls.Vector[0], avg.Vector[0])
	}
}

func TestPoolingByName(t *testing.T) {
	for name, want := range map[string]Pooling{"cls": PoolCLS, "cls_before_pooler": PoolCLSBeforePooler, "avg": PoolMean} {
		if got, err := PoolingByName(name); err != nil || got != want {
			t.Errorf("PoolingByName(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := PoolingByName("mean"); err == nil {
		t.Error("mean: no error")
	}
}

package encoders

import (
	"os"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
)

// TestGoldensOnCUDA runs the encoder goldens on GPU 0 (the CUDA backend,
// float32, TF32 off) with the CPU tests' tolerances. It skips without a
// usable GPU, saying why, and fails instead with STORYEVAL_REQUIRE_CUDA=1
// (scripts/cuda-check.sh).
func TestGoldensOnCUDA(t *testing.T) {
	b, err := cuda.NewBackend(cuda.Options{})
	if err != nil {
		if os.Getenv("STORYEVAL_REQUIRE_CUDA") == "1" {
			t.Fatalf("STORYEVAL_REQUIRE_CUDA=1 but: %v", err)
		}
		t.Skipf("no usable GPU: %v", err)
	}
	defer b.Close()
	opts := Options{Backend: b}
	t.Run("BERT", func(t *testing.T) { runBERTGoldens(t, opts) })
	t.Run("ALBERT", func(t *testing.T) { runALBERTGoldens(t, opts) })
	t.Run("ViT", func(t *testing.T) { runViTGoldens(t, opts) })
	t.Run("CLIP", func(t *testing.T) { runCLIPGoldens(t, opts) })
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
}

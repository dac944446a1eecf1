package imageproc

import (
	"fmt"
	"strings"
)

// ConfigByName returns a processor's default configuration by name (any
// case), for programs that pick it at run time: "vit" (DefaultConfig(ViT),
// HF ViTImageProcessor), "clip" (DefaultConfig(CLIP), HF
// CLIPImageProcessor) or "openai-clip" (OpenAICLIPConfig(size), clip.load's
// preprocess; size is used by it alone).
func ConfigByName(name string, size int) (ProcessorConfig, error) {
	switch strings.ToLower(name) {
	case "vit":
		return DefaultConfig(ViT)
	case "clip":
		return DefaultConfig(CLIP)
	case "openai-clip":
		return OpenAICLIPConfig(size)
	}
	return ProcessorConfig{}, fmt.Errorf("unknown processor %q (want vit, clip or openai-clip)", name)
}

// CropRoundingByName returns the center-crop rounding of the name: "floor"
// (CropFloor, HuggingFace) or "half-even" (CropRoundHalfEven, torchvision).
func CropRoundingByName(name string) (CropRounding, error) {
	switch name {
	case "floor":
		return CropFloor, nil
	case "half-even":
		return CropRoundHalfEven, nil
	}
	return 0, fmt.Errorf("unknown crop rounding %q (want floor or half-even)", name)
}

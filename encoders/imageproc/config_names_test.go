package imageproc

import (
	"reflect"
	"strings"
	"testing"
)

func TestConfigByName(t *testing.T) {
	vit, _ := DefaultConfig(ViT)
	clip, _ := DefaultConfig(CLIP)
	openai, _ := OpenAICLIPConfig(32)
	for _, c := range []struct {
		name string
		want ProcessorConfig
	}{{"vit", vit}, {"CLIP", clip}, {"openai-clip", openai}} {
		got, err := ConfigByName(c.name, 32)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ConfigByName(%q) = %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	if openai.CropRounding != CropRoundHalfEven || openai.CropSize.Height != 32 {
		t.Errorf("openai-clip 32: rounding %v, crop %+v", openai.CropRounding, openai.CropSize)
	}
	if _, err := ConfigByName("deit", 224); err == nil || !strings.Contains(err.Error(), `unknown processor "deit" (want vit, clip or openai-clip)`) {
		t.Errorf("deit: error %v", err)
	}
	for name, want := range map[string]CropRounding{"floor": CropFloor, "half-even": CropRoundHalfEven} {
		if got, err := CropRoundingByName(name); err != nil || got != want {
			t.Errorf("CropRoundingByName(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := CropRoundingByName("up"); err == nil {
		t.Error("rounding up: no error")
	}
}

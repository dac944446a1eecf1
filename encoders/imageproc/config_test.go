package imageproc

import (
	"strings"
	"testing"
)

func TestParseProcessorConfig(t *testing.T) {
	cases := []struct {
		name, json string
		check      func(ProcessorConfig) bool
	}{
		{"legacy ViT int size is square", `{"feature_extractor_type":"ViTFeatureExtractor","size":32,"resample":2}`,
			func(c ProcessorConfig) bool {
				return c.Kind == ViT && c.Size == Size{Height: 32, Width: 32} && c.DoRescale && c.RescaleFactor == 1.0/255
			}},
		{"CLIP int size is the shortest edge, int crop square", `{"image_processor_type":"CLIPImageProcessor","size":336,"crop_size":336}`,
			func(c ProcessorConfig) bool {
				return c.Kind == CLIP && c.Size == Size{ShortestEdge: 336} && c.CropSize == Size{Height: 336, Width: 336} &&
					c.Resample == Bicubic && c.ImageMean == openAICLIPMean && c.DoCenterCrop
			}},
		{"defaults", `{"image_processor_type":"ViTImageProcessor"}`,
			func(c ProcessorConfig) bool {
				return c.Size == Size{Height: 224, Width: 224} && c.Resample == Bilinear && c.ImageStd == [3]float64{0.5, 0.5, 0.5} && !c.DoCenterCrop
			}},
		{"scalar mean", `{"image_processor_type":"ViTImageProcessor","image_mean":0.25,"do_normalize":false}`,
			func(c ProcessorConfig) bool { return c.ImageMean == [3]float64{0.25, 0.25, 0.25} && !c.DoNormalize }},
	}
	for _, c := range cases {
		cfg, err := ParseProcessorConfig([]byte(c.json))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !c.check(cfg) {
			t.Errorf("%s: got %+v", c.name, cfg)
		}
	}
	bad := []struct{ json, want string }{
		{`{"image_processor_type":"DeiTImageProcessor"}`, "unsupported processor type"},
		{`{"image_processor_type":"ViTImageProcessor","size":{"shortest_edge":224}}`, "ViT size"},
		{`{"image_processor_type":"CLIPImageProcessor","size":{"height":224,"width":224}}`, "CLIP size"},
		{`{"image_processor_type":"ViTImageProcessor","image_std":[0.5,0,0.5]}`, "image_std[1] is zero"},
		{`{"image_processor_type":"ViTImageProcessor","resample":7}`, "resample code 7"},
		{`{"image_processor_type":"ViTImageProcessor","size":100000}`, "ViT size"},
		{`{"image_processor_type":"CLIPImageProcessor","image_mean":[1,2]}`, "image_mean"},
		{`not json`, "preprocessor config"},
	}
	for _, b := range bad {
		_, err := ParseProcessorConfig([]byte(b.json))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseProcessorConfig(%s) error %v, want one mentioning %q", b.json, err, b.want)
		}
	}
}

// TestNormalizeFormula pins the float32 arithmetic on single byte values:
// float32(v·(1/255)) then (x−mean)/std in float32.
func TestNormalizeFormula(t *testing.T) {
	cfg, err := DefaultConfig(CLIP)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	img := &RGB{Width: 1, Height: 1, Pix: []uint8{0, 128, 255}}
	got := p.Normalize(img, nil)
	want := []float32{
		(0 - float32(0.48145466)) / float32(0.26862954),
		(float32(128.0/255) - float32(0.4578275)) / float32(0.26130258),
		(1 - float32(0.40821073)) / float32(0.27577711),
	}
	for i := range want {
		if got.Data[i] != want[i] {
			t.Errorf("channel %d: %v, want %v", i, got.Data[i], want[i])
		}
	}
}

// TestConfigSizeAboveMaxSide: the size-13000 configs of issue 24 (a 2 GB
// tensor for a 4 KB image) are rejected with the value, and MaxSide itself
// is accepted.
func TestConfigSizeAboveMaxSide(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"image_processor_type": "ViTImageProcessor", "size": 13000}`, "got height 13000, width 13000"},
		{`{"image_processor_type": "CLIPImageProcessor", "size": 13000}`, "got shortest_edge 13000"},
		{`{"image_processor_type": "CLIPImageProcessor", "crop_size": {"height": 4097, "width": 10}}`, "got height 4097, width 10"},
	} {
		_, err := ParseProcessorConfig([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "1..4096") {
			t.Errorf("%s: error %v, want one saying %q and the range", tc.json, err, tc.want)
		}
	}
	if _, err := ParseProcessorConfig([]byte(`{"image_processor_type": "ViTImageProcessor", "size": 4096}`)); err != nil {
		t.Errorf("size 4096: %v", err)
	}
}

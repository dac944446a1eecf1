package encoders

import (
	"context"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// Tiny random-weight models: every entry point that takes a caller's
// encodings, images or tensors is fed a wrong dtype, a wrong shape and
// out-of-range ids, and must answer with an error (not a panic, not a
// result).

func tinyBERT(t *testing.T) *BERT {
	t.Helper()
	m, err := newBERT(tinyBERTConfig, randomReader(1))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func tinyALBERT(t *testing.T) *ALBERT {
	t.Helper()
	m, err := newALBERT(tinyALBERTConfig, randomReader(2))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func tinyViT(t *testing.T) *ViT {
	t.Helper()
	m, err := newViT(tinyViTConfig, randomReader(3))
	if err != nil {
		t.Fatal(err)
	}
	m.classifier = &linear{w: compute.Host(make([]float32, 3*8)), b: compute.Host(make([]float32, 3)), in: 8, out: 3}
	return m
}

func tinyCLIP(t *testing.T) *CLIP {
	t.Helper()
	m, err := newCLIP(tinyCLIPConfig(), randomReader(4))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// enc builds one encoding of the given ids with a full attention mask.
func enc(ids ...int) tokenize.Encoding {
	e := tokenize.Encoding{IDs: ids, TypeIDs: make([]int, len(ids)), AttentionMask: make([]int, len(ids)), Tokens: make([]string, len(ids))}
	for i := range e.AttentionMask {
		e.AttentionMask[i] = 1
	}
	return e
}

func image(c, h, w int) imageproc.PixelValues {
	return imageproc.PixelValues{Channels: c, Height: h, Width: w, Data: make([]float32, c*h*w)}
}

func f64(shape ...int) *tensor.Dense {
	return tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(shape...))
}
func f32(shape ...int) *tensor.Dense {
	return tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(shape...))
}

func TestEntryPointsRejectBadInput(t *testing.T) {
	ctx := context.Background()
	bert, albert, vit, clip := tinyBERT(t), tinyALBERT(t), tinyViT(t), tinyCLIP(t)
	good := []tokenize.Encoding{enc(1, 2, 3)}
	typed := enc(1, 2, 3)
	typed.TypeIDs = []int{0, 0, 7}
	shortTypes := enc(1, 2, 3)
	shortTypes.TypeIDs = []int{0}
	shortMask := enc(1, 2, 3)
	shortMask.AttentionMask = []int{1}
	long := enc(make([]int, 17)...)
	textBatches := map[string][]tokenize.Encoding{
		"empty batch":       nil,
		"id past vocab":     {enc(1, 50, 2)},
		"negative id":       {enc(1, -1)},
		"empty sequence":    {enc()},
		"ragged batch":      {enc(1, 2, 3), enc(1, 2)},
		"type past vocab":   {typed},
		"short type ids":    {shortTypes},
		"short mask":        {shortMask},
		"past max position": {long},
	}
	images := map[string][]imageproc.PixelValues{
		"empty batch":     nil,
		"wrong size":      {image(3, 16, 16)},
		"wrong channels":  {image(1, 8, 8)},
		"short data":      {{Channels: 3, Height: 8, Width: 8, Data: make([]float32, 10)}},
		"second is wrong": {image(3, 8, 8), image(3, 8, 4)},
	}
	type call struct {
		name string
		run  func() error
	}
	var calls []call
	for what, b := range textBatches {
		calls = append(calls,
			call{"BERT.Forward " + what, func() error { _, err := bert.Forward(ctx, b, ForwardOptions{}); return err }},
			call{"ALBERT.Forward " + what, func() error { _, err := albert.Forward(ctx, b, ForwardOptions{}); return err }},
		)
		if what != "type past vocab" { // CLIP has no token types
			calls = append(calls, call{"CLIP.EncodeText " + what, func() error { _, err := clip.EncodeText(ctx, b, ForwardOptions{}); return err }})
		}
	}
	for what, b := range images {
		calls = append(calls,
			call{"ViT.Forward " + what, func() error { _, err := vit.Forward(ctx, b, ForwardOptions{}); return err }},
			call{"ViT.EmbedImages " + what, func() error { _, err := vit.EmbedImages(ctx, b); return err }},
			call{"CLIP.EncodeImages " + what, func() error { _, err := clip.EncodeImages(ctx, b, ForwardOptions{}); return err }},
			call{"CLIP.EmbedImages " + what, func() error { _, err := clip.EmbedImages(ctx, b); return err }},
		)
	}
	// Tensors a caller may build or alter: a float64 tensor, a wrong rank,
	// a wrong width, nil.
	badTensors := map[string]*tensor.Dense{"float64": f64(2, 8), "rank 3": f32(2, 1, 8), "width 5": f32(2, 5), "nil": nil}
	badStates := map[string]*tensor.Dense{"float64": f64(2, 3, 8), "rank 2": f32(2, 8), "width 5": f32(2, 3, 5), "nil": nil}
	for what, x := range badTensors {
		calls = append(calls,
			call{"ALBERT.SOPLogits " + what, func() error {
				_, err := albert.SOPLogits(&ALBERTOutput{TextOutput: TextOutput{PoolerOutput: x}})
				return err
			}},
			call{"ALBERT.ClassifierLogits " + what, func() error {
				_, err := albert.ClassifierLogits(&ALBERTOutput{TextOutput: TextOutput{PoolerOutput: x}})
				return err
			}},
			call{"CLIP.Logits text " + what, func() error { _, _, err := clip.Logits(x, f32(2, 6)); return err }},
			call{"CLIP.Logits image " + what, func() error { _, _, err := clip.Logits(f32(2, 6), x); return err }},
		)
		if what != "width 5" { // without a model, any width is valid
			calls = append(calls,
				call{"CosineMatrix " + what, func() error { _, err := CosineMatrix(x); return err }},
				call{"SentenceEmbedding(PoolCLS) " + what, func() error {
					_, err := (&TextOutput{PoolerOutput: x}).SentenceEmbedding(PoolCLS)
					return err
				}},
			)
		}
	}
	for what, x := range badStates {
		calls = append(calls,
			call{"ALBERT.MLMLogits " + what, func() error {
				_, err := albert.MLMLogits(&ALBERTOutput{TextOutput: TextOutput{LastHiddenState: x}}, [][2]int{{0, 0}})
				return err
			}},
			call{"ViT.ClassifierLogits " + what, func() error {
				_, err := vit.ClassifierLogits(&ImageOutput{LastHiddenState: x})
				return err
			}},
		)
		if what != "width 5" { // without a model, any width is valid
			calls = append(calls,
				call{"TextOutput.CLS " + what, func() error { _, err := (&TextOutput{LastHiddenState: x}).CLS(); return err }},
				call{"ImageOutput.CLS " + what, func() error { _, err := (&ImageOutput{LastHiddenState: x}).CLS(); return err }},
				call{"SentenceEmbedding(PoolMean) " + what, func() error {
					_, err := (&TextOutput{LastHiddenState: x}).SentenceEmbedding(PoolMean)
					return err
				}},
			)
		}
	}
	calls = append(calls,
		call{"MLMLogits position past the batch", func() error {
			out, err := albert.Forward(ctx, good, ForwardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = albert.MLMLogits(out, [][2]int{{0, 3}})
			return err
		}},
		call{"SentenceEmbedding unknown pooling", func() error {
			_, err := (&TextOutput{LastHiddenState: f32(1, 2, 8)}).SentenceEmbedding(Pooling(9))
			return err
		}},
		call{"SentenceEmbedding nil output", func() error { _, err := (*TextOutput)(nil).SentenceEmbedding(PoolMean); return err }},
		call{"SentenceEncoder without a model", func() error { _, err := (&SentenceEncoder{}).EmbedTexts(ctx, []string{"a"}); return err }},
		call{"CLIPTextEncoder without a model", func() error { _, err := (&CLIPTextEncoder{}).EmbedTexts(ctx, []string{"a"}); return err }},
		call{"NewLinear short weight", func() error { _, err := NewLinear(make([]float32, 5), nil, 2, 3); return err }},
		call{"NewLinear short bias", func() error { _, err := NewLinear(make([]float32, 6), make([]float32, 1), 2, 3); return err }},
		call{"Linear.Apply float64", func() error { _, err := mustLinear(t).Apply(f64(2, 3)); return err }},
		call{"Linear.Apply width", func() error { _, err := mustLinear(t).Apply(f32(2, 4)); return err }},
		call{"Linear.ApplyRows partial row", func() error { _, err := mustLinear(t).ApplyRows(make([]float32, 4)); return err }},
	)
	for _, c := range calls {
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked: %v", c.name, r)
					err = nil
				}
			}()
			return c.run()
		}()
		if err == nil {
			t.Errorf("%s: no error", c.name)
		} else if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") || strings.HasPrefix(msg, "encoders: ") {
			// One line without a package prefix: errors name the input
			// at fault, and programs print them as they come.
			t.Errorf("%s: error %q is not one line without a package prefix", c.name, err)
		}
	}
	t.Logf("%d bad calls checked", len(calls))
	// The same entry points accept good input, so the errors above are
	// about the input, not a broken model.
	if _, err := bert.Forward(ctx, good, ForwardOptions{}); err != nil {
		t.Error(err)
	}
	if _, err := clip.EncodeImages(ctx, []imageproc.PixelValues{image(3, 8, 8)}, ForwardOptions{}); err != nil {
		t.Error(err)
	}
}

func mustLinear(t *testing.T) *Linear {
	l, err := NewLinear(make([]float32, 6), []float32{1, 2}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

package encoders

import (
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/nn"
)

// TestConstructorsReadTheirWalk checks that each trained architecture's
// inference constructor reads exactly the parameters of its walk in
// encoders/nn — the list the trainers save and load — in the same order
// and shapes, followed only by the heads that inference alone reads
// (ALBERT's SOP, classification and MLM heads).
func TestConstructorsReadTheirWalk(t *testing.T) {
	bert, err := NewBERTFrom(tinyBERTConfig, RandomWeights(1))
	if err != nil {
		t.Fatal(err)
	}
	albert, err := NewALBERTFrom(tinyALBERTConfig, RandomWeights(2))
	if err != nil {
		t.Fatal(err)
	}
	vit, err := NewViTFrom(tinyViTConfig, RandomWeights(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		got   []nn.Param[float32]
		walk  []nn.Param[float32]
		heads []string // prefixes of the heads read after the walk
	}{
		{"BERT", bert.Params(), nn.BERTLayout(bert.Config().Shape(), true, ""), nil},
		{"ALBERT", albert.Params(), nn.ALBERTLayout(albert.Config().Shape(), true, ""),
			[]string{albertHeads.sop + ".", albertHeads.classifier + ".", "predictions."}},
		{"ViT", vit.Params(), nn.ViTLayout(vit.Config().Shape(), true, ""), nil},
	} {
		if len(tc.got) < len(tc.walk) {
			t.Fatalf("%s: the constructor read %d parameters, its walk lists %d", tc.name, len(tc.got), len(tc.walk))
		}
		for i, w := range tc.walk {
			if g := tc.got[i]; g.Name != w.Name || !slices.Equal(g.Shape, w.Shape) {
				t.Fatalf("%s: parameter %d is %s %v, the walk lists %s %v", tc.name, i, g.Name, g.Shape, w.Name, w.Shape)
			}
		}
		for _, g := range tc.got[len(tc.walk):] {
			if !slices.ContainsFunc(tc.heads, func(p string) bool { return strings.HasPrefix(g.Name, p) }) {
				t.Errorf("%s: the constructor read %s beyond its walk", tc.name, g.Name)
			}
		}
		t.Logf("%s: %d parameters of the walk, %d of heads", tc.name, len(tc.walk), len(tc.got)-len(tc.walk))
	}
}

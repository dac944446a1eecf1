package train

import (
	"context"
	"github.com/storyeval/storyeval/vrank"
	"math"
	"sort"
	"strings"
	"testing"
)

// trainStepTolerance is the relative tolerance of the one-step check:
// 1e-5 of the largest magnitude of each tensor.
const trainStepTolerance = 1e-5

// checkTrainStep reproduces the fixture's one Adam step through the user's
// path (NewTrainer + Step with the fixture's batch and targets, the head's
// and the encoder's dropout off as in the fixture): the loss, the batch predictions, every gradient
// and every updated parameter.
func checkTrainStep(t *testing.T, f *vrankFixture, s1, s2 []string) {
	m, err := vrank.Load(f.dir + "/model")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(m, Options{NoDropout: true, NoEncoderDropout: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := f.array(t, "batch_rows").I64
	targets := f.array(t, "targets").Float64s()
	exp := f.expected.TrainStep
	f.checked["train_step.batch_rows"], f.checked["train_step.targets"] = true, true
	if len(rows) != len(exp.BatchRows) || len(targets) != len(exp.Targets) {
		t.Fatalf("batch_rows/targets arrays disagree with expected.json")
	}
	var batch []Pair
	for i, r := range rows {
		if int(r) != exp.BatchRows[i] || float32(targets[i]) != float32(exp.Targets[i]) {
			t.Fatalf("batch row %d: arrays (%d, %v) disagree with expected.json (%d, %v)", i, r, targets[i], exp.BatchRows[i], exp.Targets[i])
		}
		batch = append(batch, Pair{Story1: s1[r], Story2: s2[r], Gap: targets[i]})
	}
	before := map[string][]float32{}
	for _, name := range tr.ParameterNames() {
		before[name] = tr.Parameter(name)
	}
	res, err := tr.Step(context.Background(), batch)
	if err != nil {
		t.Fatal(err)
	}
	// Loss and predictions.
	wantLoss := f.array(t, "loss").Float64s()[0]
	f.checked["train_step.loss"] = true
	if float32(wantLoss) != float32(exp.Loss) {
		t.Errorf("loss.npy %v disagrees with expected.json %v", wantLoss, exp.Loss)
	}
	if d := math.Abs(res.Loss-wantLoss) / math.Abs(wantLoss); d > trainStepTolerance {
		t.Errorf("loss %.8g, want %.8g (relative error %.3g)", res.Loss, wantLoss, d)
	}
	t.Logf("loss %.8g, want %.8g: relative error %.3g", res.Loss, wantLoss, math.Abs(res.Loss-wantLoss)/math.Abs(wantLoss))
	wantPred := f.array(t, "predictions").Float64s()
	f.checked["train_step.predictions"] = true
	for i, p := range res.Predictions {
		if float32(wantPred[i]) != float32(exp.Predictions[i]) {
			t.Errorf("predictions.npy[%d] disagrees with expected.json", i)
		}
		if math.Abs(p-wantPred[i]) > 1e-5 {
			t.Errorf("batch prediction %d: %.8g, want %.8g", i, p, wantPred[i])
		}
	}
	rowIDs := f.array(t, "word_embedding_row_ids").I64
	// Gradients and updated parameters of every parameter the index names.
	names := make([]string, 0, len(f.index.TrainStep.Grads))
	for name := range f.index.TrainStep.Grads {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) != len(tr.ParameterNames()) {
		t.Errorf("the fixture names %d parameters, the model has %d", len(names), len(tr.ParameterNames()))
	}
	var nGrad, nAfter, nZero int
	var worstGrad, worstAfter float64
	for _, name := range names {
		kind := f.index.TrainStep.Grads[name]
		grad, after, old := tr.Gradient(name), tr.Parameter(name), before[name]
		if grad == nil {
			t.Errorf("the model has no parameter %q", name)
			continue
		}
		suffix := ""
		if kind == "rows" {
			suffix = ".rows"
		} else if kind != "full" {
			t.Errorf("%s: unknown gradient kind %q", name, kind)
			continue
		}
		wantGrad := f.array(t, "grad__"+name+suffix).Float64s()
		wantAfter := f.array(t, "after__"+name+suffix).Float64s()
		if kind == "rows" {
			H := len(wantGrad) / len(rowIDs)
			inBatch := map[int]bool{}
			var gotGrad, gotAfter []float32
			for _, id := range rowIDs {
				inBatch[int(id)] = true
				gotGrad = append(gotGrad, grad[int(id)*H:(int(id)+1)*H]...)
				gotAfter = append(gotAfter, after[int(id)*H:(int(id)+1)*H]...)
			}
			// Every other row: zero gradient, parameter unchanged.
			for r := 0; r < len(grad)/H; r++ {
				if inBatch[r] {
					continue
				}
				for j := r * H; j < (r+1)*H; j++ {
					if grad[j] != 0 || after[j] != old[j] {
						t.Fatalf("%s row %d (not in the batch): gradient %v, parameter %v → %v", name, r, grad[j], old[j], after[j])
					}
				}
			}
			grad, after = gotGrad, gotAfter
		}
		if strings.HasSuffix(name, ".attention.self.key.bias") {
			// Softmax ignores a shift of its input, and the key bias
			// shifts each query's scores by q·b: its gradient is exactly
			// zero, and both implementations return float32 rounding
			// residue instead. Adam's first step turns any nonzero residue
			// g into an update of lr·g/(|g|+eps), up to ±lr, so the updated
			// value is reproducible only up to that bound.
			weight := f.array(t, "grad__"+strings.TrimSuffix(name, ".bias")+".weight").Float64s()
			scale := 0.0
			for _, w := range weight {
				scale = math.Max(scale, math.Abs(w))
			}
			for i := range grad {
				if math.Abs(float64(grad[i])) > trainStepTolerance*scale || math.Abs(wantGrad[i]) > trainStepTolerance*scale {
					t.Errorf("%s[%d]: gradient %.3g (reference %.3g) is not rounding residue next to the key weight's %.3g", name, i, grad[i], wantGrad[i], scale)
				}
				lr := 2e-5 * (1 + 1e-6)
				if math.Abs(float64(after[i]-old[i])) > lr || math.Abs(wantAfter[i]-float64(old[i])) > lr {
					t.Errorf("%s[%d]: update larger than Adam's bound lr", name, i)
				}
			}
			nZero += len(grad)
			continue
		}
		eg := compareRelative(t, "gradient of "+name, grad, wantGrad)
		ea := compareRelative(t, "updated "+name, after, wantAfter)
		worstGrad, worstAfter = math.Max(worstGrad, eg), math.Max(worstAfter, ea)
		nGrad += len(wantGrad)
		nAfter += len(wantAfter)
	}
	t.Logf("%d parameter tensors: %d gradient values (max error %.3g relative to each tensor's largest magnitude), %d updated values (max %.3g); %d key-bias values (exact gradient 0) at rounding level, updates within Adam's ±lr bound",
		len(names), nGrad, worstGrad, nAfter, worstAfter, nZero)
}

// compareRelative checks got against want within trainStepTolerance of the
// largest |want| and returns the largest error in those units.
func compareRelative(t *testing.T, what string, got []float32, want []float64) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return math.Inf(1)
	}
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	if scale == 0 {
		scale = 1
	}
	worst := 0.0
	for i, w := range want {
		worst = math.Max(worst, math.Abs(float64(got[i])-w)/scale)
	}
	if worst > trainStepTolerance {
		t.Errorf("%s: error %.3g of the largest magnitude %.3g", what, worst, scale)
	}
	return worst
}

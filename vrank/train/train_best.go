package train

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/vrank"
)

// Best returns the epoch of highest validation accuracy so far (the
// earliest of equal ones), the model the Vrank paper keeps: its fine-tuning
// saves the model whenever the validation accuracy improves. It reports
// false when no epoch was validated.
func (t *Trainer) Best() (EpochResult, bool) {
	best, ok := EpochResult{ValidationAccuracy: math.Inf(-1)}, false
	for _, h := range t.history {
		if h.ValidationAccuracy > best.ValidationAccuracy {
			best, ok = h, true
		}
	}
	return best, ok
}

// BestModel returns the model of the best epoch (see Best): the current
// weights when it is the last epoch or no epoch was validated, else its
// checkpoint folder, which pruning keeps, or — training without
// CheckpointDir — the copy of its weights the trainer kept in memory.
func (t *Trainer) BestModel() (*vrank.Model, error) {
	best, ok := t.Best()
	switch {
	case !ok || best.Epoch == t.epoch:
		return t.Model()
	case best.Checkpoint != "":
		return vrank.Load(best.Checkpoint)
	case t.best != nil && t.bestEpoch == best.Epoch:
		return t.modelOf(t.best, true)
	}
	return nil, fmt.Errorf("the best epoch %d has neither a checkpoint nor a copy in memory", best.Epoch)
}

// keepBest keeps a copy of the weights in memory when the epoch just
// recorded is the best and no checkpoint holds it, for BestModel.
func (t *Trainer) keepBest() {
	best, ok := t.Best()
	if !ok || best.Epoch != t.epoch || best.Checkpoint != "" {
		return
	}
	if t.best == nil {
		t.best = t.net.p.zeroLike()
	}
	copyParams(t.best, t.net.p)
	t.bestEpoch = t.epoch
}

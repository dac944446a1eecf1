package main

import (
	"flag"
	"fmt"
	"io"
)

// trainFlags are the flags every training command (rovist train vg|c,
// vrank train, vrank pretrain) shares.
type trainFlags struct {
	resume, out, checkpoints *string
	epochs, batch            *int
	lr, valFraction          *float64
	seed                     *int64
	device                   deviceFlag
}

// trainDefaults are one training command's defaults for trainFlags and the
// words that differ between commands in their help.
type trainDefaults struct {
	epochs, batch   int
	lr, valFraction float64
	seed            int64
	// item names one training example ("pairs", "texts").
	item string
	// outHelp says what -out receives and how to use it; epochsHelp,
	// seedHelp and valFractionHelp replace the plain wording when set.
	outHelp, epochsHelp, seedHelp, valFractionHelp string
}

// addTrainFlags defines the shared training flags on fs.
func addTrainFlags(fs *flag.FlagSet, d trainDefaults) trainFlags {
	epochsHelp := d.epochsHelp
	if epochsHelp == "" {
		epochsHelp = "training epochs"
	}
	return trainFlags{
		resume:      fs.String("resume", "", "continue from a checkpoint folder (epoch-NNN, or the -checkpoints folder: the latest)"),
		out:         fs.String("out", "", d.outHelp),
		checkpoints: fs.String("checkpoints", "", "folder for a checkpoint after every epoch (default: none)"),
		epochs:      fs.Int("epochs", d.epochs, epochsHelp),
		batch:       fs.Int("batch", d.batch, d.item+" per Adam step"),
		lr:          fs.Float64("lr", d.lr, "Adam learning rate"),
		seed:        fs.Int64("seed", d.seed, d.seedHelp),
		valFraction: fs.Float64("val-fraction", d.valFraction, d.valFractionHelp),
		device:      addDeviceFlag(fs),
	}
}

// openDevice opens -device for a trainer whose options take a backend
// (nil for the CPU).
func (f trainFlags) openDevice() (*openDevice, error) { return f.device.open() }

// perEpoch is how many of n training examples an epoch goes through: all
// of them with separate validation data, else those the trainer keeps
// after holding out valFraction of them.
func (f trainFlags) perEpoch(n int, separateValidation bool) int {
	if !separateValidation && *f.valFraction > 0 {
		n -= int(float64(n)**f.valFraction + 0.5)
	}
	return max(n, 0)
}

// epochBar is one progress bar over all the epochs a training run has
// left, fed from a trainer's progress callback, whose Done count restarts
// with every epoch.
type epochBar struct {
	bar    *progress
	stderr io.Writer
	last   int
}

// step records that done of the epoch's total examples are finished and
// reports whether the epoch is complete.
func (b *epochBar) step(done, total int) bool {
	if done < b.last {
		b.last = 0
	}
	b.bar.Add(done - b.last)
	b.last = done
	return done == total
}

// stepEpoch is step, with a line for every completed epoch.
func (b *epochBar) stepEpoch(epoch, epochs, done, total int, loss float64) {
	if b.step(done, total) {
		fmt.Fprintf(b.stderr, "epoch %d/%d: train loss %.5g\n", epoch, epochs, loss)
	}
}

// runTraining runs train under one progress bar over total examples (of
// kind item) and finishes the bar.
func runTraining(stderr io.Writer, total int, item string, train func(bar *epochBar) error) error {
	bar := &epochBar{bar: newProgress(stderr, total, item), stderr: stderr}
	err := train(bar)
	bar.bar.Finish()
	return err
}

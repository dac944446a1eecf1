package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/training"
)

// trainFlags are the flags every training command (rovist train vg|c,
// vrank train, vrank pretrain) shares.
type trainFlags struct {
	resume, out, checkpoints string
	epochs, batch            int
	lr, valFraction          float64
	seed                     int64
	device                   deviceFlag
	item                     string // a training example, "pairs" or "texts" (-batch's help, progress)
}

// addTrainFlags defines the shared flags on fs, with d's values as their
// defaults and the help that differs between commands (-epochs': "training
// epochs" when empty).
func addTrainFlags(fs *flag.FlagSet, d trainFlags, epochsHelp, outHelp, seedHelp, valFractionHelp string) *trainFlags {
	f := &d
	fs.StringVar(&f.resume, "resume", "", "continue from a checkpoint folder (epoch-NNN, or the -checkpoints folder: the latest)")
	fs.StringVar(&f.out, "out", "", outHelp)
	fs.StringVar(&f.checkpoints, "checkpoints", "", "folder for a checkpoint after every epoch (default: none)")
	fs.IntVar(&f.epochs, "epochs", d.epochs, cmp.Or(epochsHelp, "training epochs"))
	fs.IntVar(&f.batch, "batch", d.batch, d.item+" per Adam step")
	fs.Float64Var(&f.lr, "lr", d.lr, "Adam learning rate")
	fs.Int64Var(&f.seed, "seed", d.seed, seedHelp)
	fs.Float64Var(&f.valFraction, "val-fraction", d.valFraction, valFractionHelp)
	f.device = addDeviceFlag(fs)
	return f
}

// parse parses args and requires the flags named in need, -out, and
// exactly one of -start (a new run) and -resume.
func (f *trainFlags) parse(fs *flag.FlagSet, args []string, start string, need ...string) error {
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	ok := f.out != "" && (fs.Lookup(start).Value.String() == "") != (f.resume == "")
	for i, n := range need {
		ok = ok && fs.Lookup(n).Value.String() != ""
		need[i] = "-" + n
	}
	if !ok {
		fs.Usage()
		return fmt.Errorf("give %s, -out and exactly one of -%s or -resume", strings.Join(need, ", "), start)
	}
	return nil
}

// noneIfZero maps a flag's 0 ("none") to the library options' -1.
func noneIfZero[T int | float64](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// train opens -device, hands its backend to the run (*backend) and runs
// it under one progress bar over the epochs left, fed from the trainer's
// progress callback (*prog). epochLine, when not nil, writes a line for
// each finished epoch; the report goes to stdout as JSON.
func train[R any](stdout, stderr io.Writer, f *trainFlags, backend *compute.Backend, prog *func(training.Progress),
	run func(context.Context) (R, error), epochLine func(io.Writer, training.Progress)) (rep R, err error) {
	dev, err := f.device.open()
	if err != nil {
		return rep, err
	}
	defer dev.Close()
	*backend = dev.Backend
	var bar *progress
	first := 0
	*prog = func(p training.Progress) {
		if bar == nil { // the first report tells how many examples are left
			bar, first = newProgress(stderr, p.Total*(p.Epochs-p.Epoch+1), f.item), p.Epoch
		}
		if bar.Set((p.Epoch-first)*p.Total + p.Done); p.Done == p.Total && epochLine != nil {
			epochLine(stderr, p)
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	rep, err = run(ctx)
	if bar.Finish(); err == nil {
		err = writeJSON(stdout, rep)
	}
	return rep, err
}

// trainLossLine is the line rovist train c and vrank pretrain print for
// a finished epoch.
func trainLossLine(w io.Writer, p training.Progress) {
	fmt.Fprintf(w, "epoch %d/%d: train loss %.5g\n", p.Epoch, p.Epochs, p.Loss)
}

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// deviceCommands are the commands that take -device, each with the
// fewest arguments that get it past its own flag checks to opening the
// device (the files need not exist: the device is opened before any is
// read).
var deviceCommands = [][]string{
	{"rovist", "-stories", "s.json"},
	{"groovist", "-nps", "n.json"},
	{"clipscore", "-cands", "c.json", "-images", "img"},
	{"vrank", "predict", "-model", "m", "-csv", "p.csv"},
	{"embed", "-model", "m", "-text", "a story"},
	{"rovist", "train", "vg", "-pairs", "p.csv", "-crops", "c", "-glove", "g.txt", "-out", "o", "-init", "i"},
	{"rovist", "train", "c", "-stories", "s.json", "-out", "o", "-albert", "a"},
	{"vrank", "train", "-csv", "p.csv", "-out", "o", "-encoder", "e"},
	{"vrank", "pretrain", "-corpus", "c.json", "-out", "o", "-encoder", "e"},
	{"score", "-in", "s.json"},
}

// TestDeviceFlagErrors checks, for every command that takes -device, that
// a GPU where there is no CUDA driver (CI), a GPU index past the last and
// an unknown device name each end the command with exit status 1 and one
// line naming the flag and what is missing, before any input is read; and
// that -device cpu gets past the device (to the missing input files).
func TestDeviceFlagErrors(t *testing.T) {
	if cuda.Discover(cudalib.Options{}).Libraries[0].Err == nil {
		t.Skip("a CUDA driver is installed here: the missing-driver error cannot be seen")
	}
	const noDriver = ": CUDA driver not found (libcuda.so.1) in " + cudalib.EnvLibPath + ", CUDA_HOME, CUDA_PATH and the system folders"
	for _, cmd := range deviceCommands {
		name := cmd[0] // errors are prefixed with the top-level command
		for device, want := range map[string]string{
			"cuda":   "-device cuda" + noDriver,
			"cuda:7": "-device cuda:7" + noDriver,
			"gpu":    "-device gpu: unknown device: want cpu, cuda or cuda:N (N the GPU's index, from 0)",
		} {
			var stdout, stderr bytes.Buffer
			code := runMain(append(append([]string(nil), cmd...), "-device", device), &stdout, &stderr)
			errOut := stderr.String()
			if code != 1 || !strings.HasPrefix(errOut, "storyeval "+name+": "+want) || strings.Count(errOut, "\n") != 1 || stdout.Len() != 0 {
				t.Errorf("%s -device %s: exit %d, stdout %q, stderr %q; want exit 1 and one line starting %q",
					strings.Join(cmd, " "), device, code, stdout.String(), errOut, "storyeval "+name+": "+want)
			}
		}
		var stdout, stderr bytes.Buffer
		code := runMain(append(append([]string(nil), cmd...), "-device", "cpu"), &stdout, &stderr)
		if code != 1 || strings.Contains(stderr.String(), "-device") {
			t.Errorf("%s -device cpu: exit %d, stderr %q; want the missing input reported, not the device", strings.Join(cmd, " "), code, stderr.String())
		}
	}
}

// TestDeviceFlagDefaultFromEnvironment checks that $STORYEVAL_DEVICE sets
// -device's default (an unknown name then fails as the flag would) and
// that the flag still overrides it.
func TestDeviceFlagDefaultFromEnvironment(t *testing.T) {
	t.Setenv(envDevice, "gpu")
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"embed", "-model", "m", "-text", "a"}, &stdout, &stderr)
	if want := "storyeval embed: -device gpu: unknown device"; code != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("with %s=gpu: exit %d, stderr %q; want %q", envDevice, code, stderr.String(), want)
	}
	stderr.Reset()
	code = runMain([]string{"embed", "-model", "m", "-text", "a", "-device", "cpu"}, &stdout, &stderr)
	if code != 1 || strings.Contains(stderr.String(), "-device") {
		t.Errorf("-device cpu over %s=gpu: exit %d, stderr %q; want the missing model reported", envDevice, code, stderr.String())
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// TestDevicesCommand runs `storyeval devices` with a folder holding a file
// that is not a library under libcuda.so.1's name. Without a CUDA driver
// installed, the report is one line naming the missing driver, -v adds one
// line per library and the folders searched (the rejected file among
// them), and -device cuda:0 fails with the one-line reason.
func TestDevicesCommand(t *testing.T) {
	t.Setenv(cudalib.EnvLibPath, "")
	dir := t.TempDir()
	fake := filepath.Join(dir, "libcuda.so.1")
	if err := os.WriteFile(fake, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := cuda.Discover(cudalib.Options{Paths: []string{dir}}); r.Libraries[0].Err == nil {
		t.Skipf("a CUDA driver is installed here (%s): the no-driver report cannot be seen", r.Libraries[0].Path)
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runMain(append([]string{"devices", "-cuda-lib-path", dir}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	const missing = "no usable GPU: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader; rejected " + "%s: not an ELF shared library\n"
	want := strings.Replace(missing, "%s", fake, 1)

	code, out, errOut := run()
	if code != 0 || out != want || errOut != "" {
		t.Errorf("devices: exit %d, stdout %q, stderr %q; want exit 0 and one line %q", code, out, errOut, want)
	}

	code, out, _ = run("-v")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) < 5 || lines[0]+"\n" != want ||
		!strings.HasPrefix(lines[1], "  CUDA driver: CUDA driver not found") ||
		!strings.Contains(out, "      rejected "+fake+": not an ELF shared library\n") ||
		!strings.HasPrefix(lines[len(lines)-1], "  searched (then the dynamic loader): "+dir+":") {
		t.Errorf("devices -v: exit %d, output:\n%s", code, out)
	}

	code, _, errOut = run("-device", "cuda:0")
	wantErr := "storyeval devices: cuda: CUDA driver not found (libcuda.so.1)"
	if code != 1 || !strings.HasPrefix(errOut, wantErr) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("devices -device cuda:0: exit %d, stderr %q; want exit 1 and one line starting %q", code, errOut, wantErr)
	}
	if code, _, errOut = run("-device", "cpu"); code != 0 || errOut != "" {
		t.Errorf("devices -device cpu: exit %d, stderr %q; the CPU is always usable", code, errOut)
	}

	code, out, _ = run("-format", "json")
	var rep cuda.ReportJSON
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("devices -format json: exit %d, %v:\n%s", code, err, out)
	}
	if rep.Summary+"\n" != want || len(rep.Libraries) != 3 || rep.Libraries[0].Name != "CUDA driver" ||
		!strings.HasPrefix(rep.Libraries[0].Error, "cuda: CUDA driver not found") || len(rep.GPUs) != 0 ||
		len(rep.Libraries[0].Rejected) != 1 || rep.SearchPath[0] != dir {
		t.Errorf("devices -format json:\n%s", out)
	}
}

func TestDevicesCommandErrors(t *testing.T) {
	for args, want := range map[string]string{
		"-device gpu": `device "gpu": want cpu, cuda or cuda:N`,
		"stray":       "takes no positional arguments",
		"-format xml": `-format "xml": want text or json`,
	} {
		var stdout, stderr bytes.Buffer
		code := runMain(append([]string{"devices"}, strings.Fields(args)...), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), want) {
			t.Errorf("devices %s: exit %d, stderr %q; want %q", args, code, stderr.String(), want)
		}
	}
}

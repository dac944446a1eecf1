package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/storyeval/storyeval/embcache"
)

// mainEnv, set in a child process's environment, makes the test binary run
// the storyeval command instead of the tests, so that tests and benchmarks
// can measure a whole process (its peak RSS, its wall time) without a
// separate build.
const mainEnv = "STORYEVAL_TEST_RUN_MAIN"

// peakEnv names the file a child process writes its peak RSS (VmHWM) to
// when it exits. rusage's ru_maxrss will not do: Linux carries the parent's
// high-water mark into a child across fork and exec, so a child of a large
// test binary would report the parent's size.
const peakEnv = "STORYEVAL_TEST_PEAK_FILE"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		code := runMain(os.Args[1:], os.Stdout, os.Stderr)
		if path := os.Getenv(peakEnv); path != "" {
			writePeakRSS(path)
		}
		os.Exit(code)
	}
	// The commands keep an embedding cache under the user's cache folder
	// by default; the tests (and the commands they run as children, which
	// inherit the environment) use a folder of their own.
	dir, err := os.MkdirTemp("", "storyeval-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(embcache.EnvDir, dir)
	cleanup := copyChildExecutable()
	code := m.Run()
	cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

// writePeakRSS writes this process's VmHWM line from /proc/self/status.
func writePeakRSS(path string) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			os.WriteFile(path, []byte(line), 0o644)
			return
		}
	}
}

// readPeakRSS parses what writePeakRSS wrote ("VmHWM:  123456 kB").
func readPeakRSS(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || f[2] != "kB" {
		return 0
	}
	kb, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}

// processRun is the outcome of one storyeval process.
type processRun struct {
	code           int
	stdout, stderr []byte
	wall           time.Duration
	peakRSS        int64 // bytes; 0 where /proc is missing
	// maxRSS is the child's ru_maxrss from wait4, in bytes: an upper bound
	// only, since it includes the test binary's peak (see peakEnv).
	maxRSS int64
}

// runProcess runs "storyeval args..." as a child process with the given
// extra environment.
func runProcess(t testing.TB, env []string, args ...string) processRun {
	t.Helper()
	exe := childExecutable(t)
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), mainEnv+"=1", peakEnv+"="+peakFile), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := processRun{wall: time.Since(start), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if cmd.ProcessState == nil {
		t.Fatalf("storyeval %q did not run: %v", args, err)
	}
	r.code = cmd.ProcessState.ExitCode()
	r.peakRSS = readPeakRSS(peakFile)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss << 10
	}
	return r
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// mainEnv, set in a child process's environment, makes the test binary run
// the storyeval command instead of the tests, so that tests and benchmarks
// can measure a whole process (its peak RSS, its wall time) without a
// separate build.
const mainEnv = "STORYEVAL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// processRun is the outcome of one storyeval process.
type processRun struct {
	code           int
	stdout, stderr []byte
	wall           time.Duration
	peakRSS        int64 // bytes
}

// runProcess runs "storyeval args..." as a child process with the given
// extra environment.
func runProcess(t testing.TB, env []string, args ...string) processRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), mainEnv+"=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	r := processRun{wall: time.Since(start), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if cmd.ProcessState == nil {
		t.Fatalf("storyeval %q did not run: %v", args, err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	return r
}

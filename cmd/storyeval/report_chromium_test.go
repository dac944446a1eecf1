package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromiumPath finds Debian's headless-capable Chromium. CI installs it
// (.ci/run), so there its absence is a failure; elsewhere the test skips.
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium not installed (apt-get install chromium)")
	return ""
}

// chromiumFlags are the flags a sandboxed, offline machine needs.
func chromiumFlags(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--hide-scrollbars"}
}

// TestReportOpensInChromium renders the demo report in headless Chromium:
// the DOM must hold the tables and inline SVG plots, the page must log no
// console message (errors from broken markup or blocked resources appear
// there), and the screenshot must be a real image.
func TestReportOpensInChromium(t *testing.T) {
	bin := chromiumPath(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"score", "-demo", "-out", out, "-resamples", "200", "-rounds", "999"}, &stdout, &stderr); code != 0 {
		t.Fatalf("score -demo: exit %d: %s", code, stderr.String())
	}
	page := "file://" + filepath.Join(out, "report.html")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	dom := exec.CommandContext(ctx, bin, append(chromiumFlags(filepath.Join(dir, "p1")), "--dump-dom", page)...)
	var domOut, domLog bytes.Buffer
	dom.Stdout, dom.Stderr = &domOut, &domLog
	if err := dom.Run(); err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, domLog.String())
	}
	for _, want := range []string{"<svg", "Which system is better, and is it real?", "p (Holm)", "Corpus-level scores", "BLEU-4: no best system.", "Agreement with human ratings", "Lowest-scoring stories", "Demonstration models (random weights"} {
		if !strings.Contains(domOut.String(), want) {
			t.Errorf("rendered DOM lacks %q", want)
		}
	}
	if n := strings.Count(domOut.String(), "<svg"); n < 5 {
		t.Errorf("rendered DOM holds %d SVG plots, want at least 5", n)
	}

	shot := filepath.Join(dir, "report.png")
	cmd := exec.CommandContext(ctx, bin, append(chromiumFlags(filepath.Join(dir, "p2")), "--window-size=1280,2400", "--screenshot="+shot, page)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, log.String())
	}
	for _, l := range append(strings.Split(domLog.String(), "\n"), strings.Split(log.String(), "\n")...) {
		if strings.Contains(l, "CONSOLE") {
			t.Errorf("console message: %s", l)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2400 {
		t.Fatalf("screenshot is %v", b)
	}
}

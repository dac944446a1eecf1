package main

import (
	"bytes"
	"context"
	"fmt"
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

// TestWideReportFitsThePage renders the report of 13 systems in headless
// Chromium at 1280 px: the Systems table and the score-distribution plots
// (a box per system, 1,620 pt wide) must scroll inside their own boxes,
// so that the page itself is no wider than the window (it measured 2,224
// px before the plots got their scroll box).
func TestWideReportFitsThePage(t *testing.T) {
	bin := chromiumPath(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("the a dog cat ran park happy family beach sun played ball went home day we they fun water tree")
	text := func(seed, n int) string {
		var w []string
		for i := range n {
			w = append(w, words[(seed*7+i*i*3+i)%len(words)])
		}
		return strings.Join(w, " ") + " ."
	}
	refs, systems := map[string][]string{}, 13
	for s := range 12 {
		refs[fmt.Sprintf("s%d", s)] = []string{text(s, 12)}
	}
	writeJSONFile(t, filepath.Join(in, "references.json"), refs)
	for k := range systems {
		stories := map[string]string{}
		for s := range 12 {
			stories[fmt.Sprintf("s%d", s)] = text(k*31+s, 10) + " " + text(k*17+s+5, 8)
		}
		writeJSONFile(t, filepath.Join(in, fmt.Sprintf("sys%02d.json", k)), stories)
	}
	out := filepath.Join(dir, "report")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"score", "-in", in, "-metrics", "bleu,rouge,nr", "-out", out, "-resamples", "20", "-rounds", "20"}, &stdout, &stderr); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr.String())
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The page's width, measured after layout, becomes its title.
	measure := "<script>window.addEventListener('load', () => { document.title = 'width ' + document.documentElement.scrollWidth; });</script></body>"
	page := filepath.Join(dir, "measured.html")
	if err := os.WriteFile(page, bytes.Replace(html, []byte("</body>"), []byte(measure), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dom, err := exec.CommandContext(ctx, bin, append(chromiumFlags(filepath.Join(dir, "p")), "--window-size=1280,900", "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	var width int
	if i := bytes.Index(dom, []byte("<title>width ")); i < 0 {
		t.Fatalf("no measured width in the rendered DOM")
	} else if _, err := fmt.Sscanf(string(dom[i+len("<title>width "):]), "%d", &width); err != nil {
		t.Fatal(err)
	}
	if width > 1280 {
		t.Errorf("the report of %d systems is %d px wide in a 1280 px window", systems, width)
	}
}

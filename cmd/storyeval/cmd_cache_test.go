package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// runStoryeval runs the command and returns its stdout and stderr,
// failing the test on a non-zero exit.
func runStoryeval(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("storyeval %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// fromCacheLine is the closing line's count of kind ("image" or "text"):
// "X of Y image embeddings, K of L text embeddings from the cache"; 0 of
// 0 when the line leaves the kind out.
func fromCacheLine(t *testing.T, stderr, kind string) (hits, total int) {
	t.Helper()
	for _, l := range strings.Split(stderr, "\n") {
		i := strings.Index(l, " from the cache ")
		if i < 0 {
			continue
		}
		m := regexp.MustCompile(`(\d+) of (\d+) ` + kind + ` embeddings`).FindStringSubmatch(l[:i])
		if m == nil {
			return 0, 0
		}
		hits, _ = strconv.Atoi(m[1])
		total, _ = strconv.Atoi(m[2])
		return hits, total
	}
	t.Fatalf("no closing cache line in stderr:\n%s", stderr)
	return 0, 0
}

// rovistVGFixtureArgs are the rovist flags that score VG on the rovist_vg
// fixture (without idf).
func rovistVGFixtureArgs(t *testing.T) []string {
	dir := e2efixtures.Metric("rovist_vg")
	glob := func(pattern string) string {
		m := mustGlob(t, filepath.Join(dir, pattern))
		if len(m) == 0 {
			t.Fatalf("no %s in %s", pattern, dir)
		}
		return m[0]
	}
	return []string{"-stories", filepath.Join(dir, "test_stories.json"), "-metrics", "vg", "-no-idf",
		"-grounding-model", glob("*.pth.tar"), "-vit", filepath.Dir(glob("*/preprocessor_config.json")),
		"-glove", glob("glove*.txt"), "-regions", glob("*entities*.csv"), "-crops", filepath.Join(dir, "vist-entities"),
		"-nouns", filepath.Join(dir, "nouns.json")}
}

// TestCommandsCacheBitIdentical runs clipscore and rovist VG with an
// empty cache, again with it warm, and with -no-cache: the same bytes on
// stdout each time, and the closing line counts the embeddings the cache
// gave (none, then all).
func TestCommandsCacheBitIdentical(t *testing.T) {
	cdir := e2efixtures.Metric("clipscore")
	clipArgs := []string{"clipscore", "-cands", filepath.Join(cdir, "candidates.json"), "-images", filepath.Join(cdir, "images"),
		"-refs", filepath.Join(cdir, "refs.json"), "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}
	for _, args := range [][]string{clipArgs, append([]string{"rovist"}, rovistVGFixtureArgs(t)...)} {
		cache := t.TempDir()
		with := append([]string{args[0], "-cache", cache}, args[1:]...)
		first, errFirst := runStoryeval(t, with...)
		second, errSecond := runStoryeval(t, with...)
		plain, errPlain := runStoryeval(t, append([]string{args[0], "-no-cache"}, args[1:]...)...)
		if first != plain || second != plain {
			t.Fatalf("%s: outputs differ with the cache:\nempty %s\nwarm  %s\noff   %s", args[0], first, second, plain)
		}
		texts := 0
		for _, kind := range []string{"image", "text"} {
			if h, n := fromCacheLine(t, errFirst, kind); h != 0 || n == 0 && (kind == "image" || args[0] == "clipscore") {
				t.Fatalf("%s, empty cache: %d of %d %s embeddings from the cache, want 0 of some", args[0], h, n, kind)
			}
			h, n := fromCacheLine(t, errSecond, kind)
			if h != n || n == 0 && (kind == "image" || args[0] == "clipscore") {
				t.Fatalf("%s, warm cache: %d of %d %s embeddings from the cache, want all", args[0], h, n, kind)
			}
			if kind == "text" {
				texts = n
			} else {
				t.Logf("%s: %d image embeddings, all from the cache on the second run", args[0], n)
			}
		}
		if args[0] == "rovist" && texts != 0 {
			t.Fatalf("rovist looked up %d text embeddings (GloVe is a table, not an encoder)", texts)
		}
		if texts > 0 {
			t.Logf("%s: %d text embeddings, all from the cache on the second run", args[0], texts)
		}
		if strings.Contains(errPlain, "from the cache") {
			t.Fatalf("%s -no-cache: %s", args[0], errPlain)
		}
	}
}

// TestCacheCommand warms a cache with `cache warm` (RoViST-VG crops,
// GROOViST crops and phrases, CLIPScore images), checks that rovist and
// groovist then take every embedding from it, and that stats and clear
// report and empty it.
func TestCacheCommand(t *testing.T) {
	cache := t.TempDir()
	vg := rovistVGFixtureArgs(t)
	flag := func(name string) string {
		for i, a := range vg {
			if a == name {
				return vg[i+1]
			}
		}
		t.Fatalf("no %s", name)
		return ""
	}
	gdir := e2efixtures.Metric("groovist")
	out, _ := runStoryeval(t, "cache", "warm", "-cache", cache, "-grounding-model", flag("-grounding-model"), "-vit", flag("-vit"),
		"-regions", flag("-regions"), "-crops", flag("-crops"))
	if !strings.HasPrefix(out, "RoViST-VG: ") || strings.HasPrefix(out, "RoViST-VG: 0 ") {
		t.Fatalf("cache warm RoViST-VG: %q", out)
	}
	_, errOut := runStoryeval(t, append([]string{"rovist", "-cache", cache}, vg...)...)
	if h, n := fromCacheLine(t, errOut, "image"); h != n || n == 0 {
		t.Fatalf("rovist after cache warm: %d of %d from the cache, want all", h, n)
	}
	out, errOut = runStoryeval(t, "cache", "warm", "-cache", cache, "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir,
		"-regions", filepath.Join(gdir, "aesop_entities.csv"), "-crops", filepath.Join(gdir, "aesop-entities"),
		"-images", filepath.Join(e2efixtures.Metric("clipscore"), "images"))
	if !strings.Contains(out, "GROOViST: ") || !strings.Contains(out, "CLIPScore: ") || strings.Contains(out, ": 0 ") {
		t.Fatalf("cache warm GROOViST, CLIPScore: %q (stderr %q)", out, errOut)
	}
	// GROOViST's phrases: after warming them and the crops, the groovist
	// command takes every crop and phrase from the cache.
	out, _ = runStoryeval(t, "cache", "warm", "-cache", cache, "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir,
		"-nps", filepath.Join(gdir, "nphrases.json"))
	var phrases, all, stories int
	if _, err := fmt.Sscanf(out, "GROOViST: %d of %d noun phrases of %d stories encoded and stored\n", &phrases, &all, &stories); err != nil || phrases != all || all == 0 {
		t.Fatalf("cache warm -nps: %q (err %v)", out, err)
	}
	_, errOut = runStoryeval(t, "groovist", "-cache", cache, "-nps", filepath.Join(gdir, "nphrases.json"), "-model", e2efixtures.Metric("clip"),
		"-tokenizer", clipTokenizerDir, "-entities", filepath.Join(gdir, "aesop_entities.csv"), "-crops", filepath.Join(gdir, "aesop-entities"),
		"-dataset", "aesop")
	for _, kind := range []string{"image", "text"} {
		if h, n := fromCacheLine(t, errOut, kind); h != n || n == 0 || kind == "text" && n != all {
			t.Fatalf("groovist after cache warm: %d of %d %s embeddings from the cache, want all (%d phrases warmed)", h, n, kind, all)
		}
	}
	var st embcache.Summary
	out, _ = runStoryeval(t, "cache", "stats", "-cache", cache)
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Entries == 0 || st.Bytes == 0 || st.FileBytes < st.Bytes ||
		st.Text.Entries != all || st.Image.Entries+all != st.Entries || st.Verified {
		t.Fatalf("cache stats after warming images and %d phrases: %q (err %v)", all, out, err)
	}
	texts := st.Text.Entries
	// Scoring CLIPScore adds its captions' and references' text
	// embeddings; -verify reads every page and value and finds it sound.
	cdir := e2efixtures.Metric("clipscore")
	runStoryeval(t, "clipscore", "-cache", cache, "-cands", filepath.Join(cdir, "candidates.json"), "-images", filepath.Join(cdir, "images"),
		"-refs", filepath.Join(cdir, "refs.json"), "-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir)
	out, _ = runStoryeval(t, "cache", "stats", "-cache", cache, "-verify")
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Text.Entries <= texts || st.Image.Entries+st.Text.Entries != st.Entries ||
		st.Image.Bytes+st.Text.Bytes != st.Bytes || !st.Verified || st.Rebuilt != "" ||
		st.Text.BytesPer10000 != st.Text.Bytes*10000/int64(st.Text.Entries) || st.FileBytesPer10000 != st.FileBytes*10000/int64(st.Entries) {
		t.Fatalf("cache stats -verify after clipscore: %q (err %v)", out, err)
	}
	out, _ = runStoryeval(t, "cache", "clear", "-cache", cache)
	if out != fmt.Sprintf("cleared %d entries from %s\n", st.Entries, st.Path) {
		t.Fatalf("cache clear: %q", out)
	}
	out, _ = runStoryeval(t, "cache", "stats", "-cache", cache)
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Entries != 0 {
		t.Fatalf("cache stats after clear: %q (err %v)", out, err)
	}
}

// TestCommandCacheDamaged: a damaged store is rebuilt, with a note, and
// the scores are those of a run without the cache.
func TestCommandCacheDamaged(t *testing.T) {
	cache := t.TempDir()
	if err := os.WriteFile(filepath.Join(cache, "embeddings.bolt"), []byte(strings.Repeat("garbage", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"rovist", "-cache", cache}, rovistVGFixtureArgs(t)...)
	want, _ := runStoryeval(t, append([]string{"rovist", "-no-cache"}, rovistVGFixtureArgs(t)...)...)
	out, errOut := runStoryeval(t, args...)
	if out != want || !strings.Contains(errOut, "embedding cache rebuilt") {
		t.Fatalf("damaged store: same output %v, stderr %q", out == want, errOut)
	}
}

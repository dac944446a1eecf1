package main

import (
	"path/filepath"
	"testing"
)

// BenchmarkScoreGROOViSTVsCommand compares the time per story of GROOViST
// inside `score -metrics groovist` with `storyeval groovist` on the same
// stories, with a full-size (ViT-B/32) random-weight CLIP, 5 images of 10
// region crops per sequence:
//
//	go test -run='^$' -bench=ScoreGROOViSTVsCommand -benchtime=1x ./cmd/storyeval/
//
// one-system: 4 sequences of one system, so that both do the same work.
// three-systems: the same 4 sequences with 3 systems' stories; the command
// runs once per system and embeds every crop 3 times, score embeds each
// crop once for all systems.
func BenchmarkScoreGROOViSTVsCommand(b *testing.B) {
	const sequences, images, crops = 4, 5, 10
	dir := b.TempDir()
	clipDir := filepath.Join(dir, "clip")
	writeRandomCLIP(b, clipDir)
	for _, c := range []struct {
		name    string
		systems []string
	}{
		{"one-system", []string{"llava"}},
		{"three-systems", []string{"llava", "llava-2sent", "echo"}},
	} {
		cdir := filepath.Join(dir, c.name)
		bs := writeBenchSuite(b, mkdir(b, cdir), sequences, images, c.systems...)
		regions, cropsDir := writeRegionCrops(b, cdir, bs.imageIDs, crops)
		models := linkModels(b, cdir, map[string]string{"clip": clipDir})
		stories := sequences * len(c.systems)
		var cmds [][]string
		for _, sys := range c.systems {
			cmds = append(cmds, []string{"groovist", "-stories", bs.commandStories[sys], "-model", clipDir, "-entities", regions, "-crops", cropsDir})
		}
		b.Run(c.name, func(b *testing.B) {
			compareWithCommand(b, stories, 0, cmds, scoreArgs(cdir, bs, models, "groovist", "-regions", regions, "-crops", cropsDir))
		})
	}
}

package main

import (
	"path/filepath"
	"testing"
)

// BenchmarkScoreGroundingVsCommand compares the time per story of RoViST-VG
// inside `score -metrics vg` with `storyeval rovist -metrics vg` on the same
// stories, with a full-size (ViT-B/16) random-weight grounding model, 5
// images of 8 region crops per sequence:
//
//	go test -run='^$' -bench=ScoreGroundingVsCommand -benchtime=1x ./cmd/storyeval/
//
// one-system: 2 sequences of one system, so that both do the same work.
// three-systems: the first sequence with 3 systems' stories; the command
// runs once per system and encodes every crop 3 times, score encodes each
// crop once for all systems, so its time per story should be lower.
func BenchmarkScoreGroundingVsCommand(b *testing.B) {
	const images, crops = 5, 8
	dir := b.TempDir()
	ckpt, vitDir := writeRandomRoViSTVG(b, dir)
	for _, c := range []struct {
		name      string
		sequences int
		systems   []string
	}{
		{"one-system", 2, []string{"llava"}},
		{"three-systems", 1, []string{"llava", "llava-2sent", "echo"}},
	} {
		cdir := filepath.Join(dir, c.name)
		bs := writeBenchSuite(b, mkdir(b, cdir), c.sequences, images, c.systems...)
		regions, cropsDir := writeRegionCrops(b, cdir, bs.imageIDs, crops)
		glove, idf := writeNounTables(b, cdir, bs.stories)
		models := linkModels(b, cdir, map[string]string{
			"rovist/r2p_model_epoch2.safetensors":                        ckpt,
			"rovist/vit-base-patch16-224-in21k/config.json":              filepath.Join(vitDir, "config.json"),
			"rovist/vit-base-patch16-224-in21k/preprocessor_config.json": filepath.Join(vitDir, "preprocessor_config.json"),
			"rovist/glove.6B.300d.txt":                                   glove,
			"rovist/idf_dict.pkl":                                        idf,
		})
		stories := c.sequences * len(c.systems)
		var cmds [][]string
		for _, sys := range c.systems {
			cmds = append(cmds, []string{"rovist", "-stories", bs.commandStories[sys], "-metrics", "vg", "-grounding-model", ckpt, "-vit", vitDir,
				"-glove", glove, "-idf", idf, "-regions", regions, "-crops", cropsDir})
		}
		b.Run(c.name, func(b *testing.B) {
			compareWithCommand(b, stories, 0, cmds, scoreArgs(cdir, bs, models, "vg", "-regions", regions, "-crops", cropsDir))
		})
	}
}

package main

import "io"

// useCache opens the embedding cache when a loaded model encodes images
// (RoViST-VG, GROOViST, CLIPScore) and points those models at it; the
// caller closes the returned run (nil when no model encodes images or the
// cache is off).
func (m *scoreModels) useCache(flags cacheFlags, stderr io.Writer) (*cacheRun, error) {
	if m == nil || (m.grounder == nil && m.groovist == nil && m.clipScorer == nil) {
		return nil, nil
	}
	run := flags.open("score", stderr)
	if run == nil {
		return nil, nil
	}
	if m.grounder != nil {
		if err := run.grounder(m.grounder, m.grounderFiles[0], m.grounderFiles[1]); err != nil {
			run.close()
			return nil, err
		}
	}
	if m.groovist != nil || m.clipScorer != nil {
		cache, id, err := run.clip(m.clipDir)
		if err != nil {
			run.close()
			return nil, err
		}
		if m.groovist != nil {
			m.groovist.Cache, m.groovist.CacheModel = cache, id
		}
		if m.clipScorer != nil {
			m.clipScorer.Cache, m.clipScorer.CacheModel = cache, id
		}
	}
	return run, nil
}

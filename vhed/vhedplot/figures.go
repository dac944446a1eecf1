package vhedplot

import (
	"os"
	"path/filepath"
)

// SaveFigures writes both figures (AccuracyByGap, AccuracyByOmega) as PNG
// and SVG into dir, creating it: accuracy_by_gap.{png,svg} and
// accuracy_by_omega.{png,svg}, what `storyeval vhed assess -plot DIR`
// writes.
func SaveFigures(dir string, series []Series) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	byGap, err := AccuracyByGap(series)
	if err != nil {
		return err
	}
	byOmega, err := AccuracyByOmega(series)
	if err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := Save(filepath.Join(dir, "accuracy_by_gap"+ext), byGap); err != nil {
			return err
		}
		if err := Save(filepath.Join(dir, "accuracy_by_omega"+ext), byOmega); err != nil {
			return err
		}
	}
	return nil
}

package randmodel

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// WriteRegionCrops writes, for each image id, perImage JPEG region crops of
// 60–160 × 40–120 pixels into dir/crops, named {image_id}_{bbox}.jpg as the
// released VIST-entities crops are, and dir/vist_entities.csv listing them
// (image_id,bbox with a quoted "[x0, y0, x1, y1]" box); it returns the CSV
// path and the crops folder.
func WriteRegionCrops(dir string, imageIDs []string, perImage int, seed int64) (csvPath, crops string, err error) {
	crops = filepath.Join(dir, "crops")
	if err := os.MkdirAll(crops, 0o755); err != nil {
		return "", "", err
	}
	rng := rand.New(rand.NewSource(seed))
	var csv strings.Builder
	csv.WriteString("image_id,bbox\n")
	for _, id := range imageIDs {
		for k := range perImage {
			w, h := 60+rng.Intn(100), 40+rng.Intn(80)
			box := fmt.Sprintf("[%d.0, 0.0, %d.0, %d.0]", k, k+w, h)
			fmt.Fprintf(&csv, "%s,\"%s\"\n", id, box)
			img := image.NewRGBA(image.Rect(0, 0, w, h))
			for y := range h {
				for x := range w {
					img.Set(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), uint8(rng.Intn(256)), 255})
				}
			}
			var jb bytes.Buffer
			if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 90}); err != nil {
				return "", "", err
			}
			if err := os.WriteFile(filepath.Join(crops, id+"_"+box+".jpg"), jb.Bytes(), 0o644); err != nil {
				return "", "", err
			}
		}
	}
	csvPath = filepath.Join(dir, "vist_entities.csv")
	return csvPath, crops, os.WriteFile(csvPath, []byte(csv.String()), 0o644)
}

package main

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// addressSpaceEnv, set in a child's environment, limits the child's
// address space (RLIMIT_AS) to that many bytes before anything else runs,
// as `ulimit -v` would: issue 24's hostile runs used 4 GB.
const addressSpaceEnv = "STORYEVAL_TEST_ADDRESS_SPACE"

func init() {
	if v := os.Getenv(addressSpaceEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err == nil {
			err = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s=%s: %v\n", addressSpaceEnv, v, err)
			os.Exit(2)
		}
	}
}

// pngChunkWriter writes the zlib stream it is given as IDAT chunks of up to
// 1 MiB.
type pngChunkWriter struct {
	w   io.Writer
	buf []byte
}

func (c *pngChunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	for len(c.buf) >= 1<<20 {
		writeChunk(c.w, "IDAT", c.buf[:1<<20])
		c.buf = c.buf[1<<20:]
	}
	return len(p), nil
}

func writeChunk(w io.Writer, typ string, data []byte) {
	w.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	crc := crc32.NewIEEE()
	io.WriteString(crc, typ)
	crc.Write(data)
	io.WriteString(w, typ)
	w.Write(data)
	w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}

// writeBombPNG writes a side × side PNG of black pixels (colour type ctype,
// bitDepth bits a sample), compressed as far as zlib goes, streaming the
// rows so that the test never holds the image: issue 24's 13000² 8-bit RGB
// file is 0.49 MB and decodes to 0.5 GB of RGB; the 16-bit RGBA one is
// 1.3 MB for 1.35 GB of samples.
func writeBombPNG(t *testing.T, path string, side int, bitDepth, ctype byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(side))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(side))
	writeChunk(bw, "IHDR", append(ihdr, bitDepth, ctype, 0, 0, 0))
	channels := map[byte]int{2: 3, 6: 4}[ctype]
	cw := &pngChunkWriter{w: bw}
	zw, _ := zlib.NewWriterLevel(cw, zlib.BestCompression)
	row := make([]byte, 1+side*channels*int(bitDepth)/8)
	for range side {
		zw.Write(row)
	}
	zw.Close()
	writeChunk(bw, "IDAT", cw.buf)
	writeChunk(bw, "IEND", nil)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// bombImages writes issue 24's two 13000×13000 PNGs into dir.
func bombImages(t *testing.T, dir string) (rgb8, rgba16 string) {
	rgb8, rgba16 = filepath.Join(dir, "rgb8.png"), filepath.Join(dir, "rgba16.png")
	writeBombPNG(t, rgb8, 13000, 8, 2)
	writeBombPNG(t, rgba16, 13000, 16, 6)
	for _, p := range []string{rgb8, rgba16} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.2f MB", filepath.Base(p), float64(st.Size())/1e6)
	}
	return rgb8, rgba16
}

// flatImage is a width × height image of one colour, for encoding a JPEG
// bomb without holding its pixels.
type flatImage struct {
	w, h int
	c    color.RGBA
}

func (f flatImage) ColorModel() color.Model { return color.RGBAModel }
func (f flatImage) Bounds() image.Rectangle { return image.Rect(0, 0, f.w, f.h) }
func (f flatImage) At(x, y int) color.Color { return f.c }

// writeBombJPEG writes a side × side baseline JPEG (4:2:0) of one colour:
// every block is its DC term, so 13000² pixels take about 2 MB and decode
// to 0.5 GB of RGB, more in the decoder's planes.
func writeBombJPEG(t *testing.T, path string, side int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	if err := jpeg.Encode(bw, flatImage{side, side, color.RGBA{200, 120, 40, 255}}, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %.2f MB", filepath.Base(path), float64(st.Size())/1e6)
}

// TestHostileImagesInBoundedMemory runs clipscore, rovist (VG crops),
// groovist (crops) and imageproc as child processes under a 4 GB
// address-space limit on issue 24's image bombs: four 13000×13000 PNGs at
// once (two 8-bit RGB of 0.49 MB, two 16-bit RGBA of 1.3 MB; 6.7 GB of
// samples in all), and a preprocessor_config.json of size 13000. Each run
// must exit 0 with complete output or 1 with a one-line error, never
// crash, and peak at most 2 GB of RSS.
func TestHostileImagesInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: decodes four 13000x13000 images per command")
	}
	dir := t.TempDir()
	rgb8, rgba16 := bombImages(t, dir)
	bombs := []string{rgb8, rgb8, rgba16, rgba16}
	link := func(src, dst string) {
		if err := os.Link(src, dst); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// clipscore: four images in the folder.
	images := mkdir("images")
	for i, b := range bombs {
		link(b, filepath.Join(images, fmt.Sprintf("img%d.png", i)))
	}
	cands := write("cands.json", `{"img0": "a dog", "img1": "a cat", "img2": "a park", "img3": "a tree"}`)
	// clipscore: two 13000×13000 JPEGs at once.
	jpegs := mkdir("jpegs")
	writeBombJPEG(t, filepath.Join(dir, "flat.jpg"), 13000)
	for i := range 2 {
		link(filepath.Join(dir, "flat.jpg"), filepath.Join(jpegs, fmt.Sprintf("img%d.jpg", i)))
	}
	jpegCands := write("jpeg-cands.json", `{"img0": "an orange wall", "img1": "a brown door"}`)
	// rovist VG and groovist: four region crops of one image.
	boxes := []string{"[0.0, 0.0, 10.0, 10.0]", "[1.0, 0.0, 10.0, 10.0]", "[2.0, 0.0, 10.0, 10.0]", "[3.0, 0.0, 10.0, 10.0]"}
	vgCrops, gvCrops := mkdir("vg-crops"), mkdir("gv-crops")
	regions, entities := "image_id,bbox\n", "image_name,image_id,bbox,object,score\n"
	for i, b := range boxes {
		link(bombs[i], filepath.Join(vgCrops, "7_"+b+".jpg"))
		link(bombs[i], filepath.Join(gvCrops, "7_"+b+".jpg"))
		regions += fmt.Sprintf("7,%q\n", b)
		entities += fmt.Sprintf("x.jpg,7,%q,dog,0.9\n", b)
	}
	regionsCSV, entitiesCSV := write("regions.csv", regions), write("entities.csv", entities)
	stories := write("stories.json", `{"s1": {"story": "the dog ran in the park .", "images": ["7"]}}`)
	nouns := write("nouns.json", `{"s1": ["dog", "park"]}`)
	nps := write("nps.json", `{"s1": ["the dog", "the park"]}`)
	sid2iids := write("sid2iids.json", `{"s1": ["7"]}`)
	config := write("preprocessor_config.json", `{"image_processor_type": "ViTImageProcessor", "size": 13000}`)
	small := write("small.png", "")
	writeBombPNG(t, small, 16, 8, 2)

	vg := e2efixtures.Metric("rovist_vg")
	clipModel := []string{"-model", e2efixtures.Metric("clip"), "-tokenizer", clipTokenizerDir}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout (code 0) or the error line (code 1)
	}{
		{"clipscore four bombs", append([]string{"clipscore", "-cands", cands, "-images", images, "-format", "csv"}, clipModel...), 0, "img3,"},
		{"clipscore two JPEG bombs", append([]string{"clipscore", "-cands", jpegCands, "-images", jpegs, "-format", "csv"}, clipModel...), 0, "img1,"},
		{"clipscore pixel limit", append([]string{"clipscore", "-cands", cands, "-images", images, "-max-image-pixels", "100000000"}, clipModel...),
			1, "img0.png: png: image of 13000x13000 pixels exceeds the limit of 100000000 pixels (raise the limit with -max-image-pixels)"},
		{"rovist VG four bomb crops", []string{"rovist", "-stories", stories, "-metrics", "vg", "-grounding-model", filepath.Join(vg, "r2p_model_epoch2.pth.tar"),
			"-vit", filepath.Join(vg, "vit-base-patch16-224-in21k"), "-glove", filepath.Join(vg, "glove.6B.300d.txt"), "-no-idf",
			"-regions", regionsCSV, "-crops", vgCrops, "-nouns", nouns}, 0, "s1,"},
		{"groovist four bomb crops", append([]string{"groovist", "-nps", nps, "-entities", entitiesCSV, "-crops", gvCrops,
			"-dataset", "custom", "-sid2iids", sid2iids, "-format", "csv"}, clipModel...), 0, "s1,"},
		{"imageproc size 13000", []string{"imageproc", "-config", config, small}, 1, "preprocessor_config.json: ViT size must give height and width in 1..4096 (MaxSide), got height 13000, width 13000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runProcess(t, []string{addressSpaceEnv + "=4294967296"}, tc.args...)
			msg := string(r.stderr)
			if strings.Contains(msg, "fatal error") || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") {
				t.Fatalf("crashed (exit %d):\n%.2000s", r.code, msg)
			}
			if r.code != tc.code {
				t.Fatalf("exit status %d, want %d; stderr:\n%.2000s", r.code, tc.code, msg)
			}
			switch tc.code {
			case 0:
				if !strings.Contains(string(r.stdout), tc.want) {
					t.Errorf("output lacks %q:\n%s", tc.want, r.stdout)
				}
				checkCompleteOutput(t, tc.name, r.stdout)
			default:
				if lines := strings.Split(strings.TrimSpace(msg), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
					t.Errorf("error %q, want one line with %q", msg, tc.want)
				}
			}
			if r.peakRSS == 0 {
				t.Error("no peak RSS measured")
			}
			if r.peakRSS > 2<<30 {
				t.Errorf("peak RSS %d MB, want at most 2 GB", r.peakRSS>>20)
			}
			t.Logf("%s: exit %d, %.1f s, peak RSS %d MB (VmHWM), ru_maxrss %d MB (carries the test binary's own peak)",
				tc.name, r.code, r.wall.Seconds(), r.peakRSS>>20, r.maxRSS>>20)
		})
	}
}

// checkCompleteOutput checks that a run's CSV output has a numeric score
// for every row: all four images (clipscore), or the one story (rovist,
// groovist).
func checkCompleteOutput(t *testing.T, name string, out []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := map[string]int{"clipscore four bombs": 6, "clipscore two JPEG bombs": 4, "rovist VG four bomb crops": 3, "groovist four bomb crops": 2}[name]
	if len(lines) < want {
		t.Fatalf("%d output lines, want %d:\n%s", len(lines), want, out)
	}
	for _, l := range lines[1:want] {
		f := strings.Split(l, ",")
		if _, err := strconv.ParseFloat(f[1], 64); err != nil || f[1] == "NaN" {
			t.Errorf("row %q has no score", l)
		}
	}
}

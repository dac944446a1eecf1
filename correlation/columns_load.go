package correlation

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/internal/gzipbound"
)

// maxColumnsBytes bounds the file LoadColumns reads, before and after
// decompression, so that a wrong path fails fast instead of filling memory.
const maxColumnsBytes = 1 << 30

// LoadColumns reads the named columns of the CSV file at path
// (ReadColumns), decompressing a file whose name ends in .gz, within
// 1 GiB. Errors name the file.
func LoadColumns(path string, names ...string) ([][]float64, error) {
	data, err := gzipbound.ReadFile(path, maxColumnsBytes)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		if data, err = gzipbound.Gunzip(data, maxColumnsBytes); err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
	}
	cols, err := ReadColumns(bytes.NewReader(data), names...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cols, nil
}

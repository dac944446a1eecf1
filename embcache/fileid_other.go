//go:build !unix

package embcache

import "os"

// fileStamp has no change time to rely on here: digests are not
// remembered and every file is read.
func fileStamp(os.FileInfo) ([]byte, bool) { return nil, false }

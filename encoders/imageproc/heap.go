package imageproc

import (
	"os"
	"runtime"
	"runtime/debug"
)

// BoundHeap sets the process's soft memory limit (debug.SetMemoryLimit)
// to the live heap now (the loaded models) plus the decode budget and
// 256 MiB for the rest of the run, unless GOMEMLIMIT is set or budget is
// nil, and returns the function that restores the previous limit. The
// budget bounds the images live at once, but without a limit the collector
// lets the garbage of finished images grow as large as the live heap
// before collecting it (GOGC=100): a second 13000×13000 image was
// allocated while the first was still mapped (clipscore on issue 24's
// bombs: "fatal error: out of memory" under a 4 GB ulimit -v). The limit
// is the process's: call it from a program's main, not from a library.
func BoundHeap(budget *DecodeBudget) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" || budget == nil {
		return func() {}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	prev := debug.SetMemoryLimit(int64(ms.HeapAlloc) + budget.Size() + 256<<20)
	return func() { debug.SetMemoryLimit(prev) }
}

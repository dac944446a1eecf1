package imageproc

import (
	"runtime/debug"
	"testing"
)

// TestBoundHeap: the limit is above the live heap by the budget and
// 256 MiB, and restore puts the previous limit back; GOMEMLIMIT or no
// budget leaves it alone.
func TestBoundHeap(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	budget := NewDecodeBudget(64 << 20)
	restore := BoundHeap(budget)
	limit := debug.SetMemoryLimit(-1)
	restore()
	if limit < budget.Size()+256<<20 || limit > budget.Size()+256<<20+4<<30 {
		t.Errorf("limit %d, want the live heap + %d", limit, budget.Size()+256<<20)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("after restore: limit %d, want %d", after, before)
	}
	BoundHeap(nil)
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("without a budget: limit %d, want %d", l, before)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	BoundHeap(budget)
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("with GOMEMLIMIT set: limit %d, want %d", l, before)
	}
}

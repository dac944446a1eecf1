package compare

import "testing"

// TestVrankGapTableIndexing checks the layout vrankGaps predicts in (system
// by system, sequence by sequence, the other systems in suite order) on
// three systems, where the skipped diagonal shifts the later peers.
func TestVrankGapTableIndexing(t *testing.T) {
	const systems, sequences = 3, 2
	tab := vrankGapTable{sequences: sequences, peers: systems - 1}
	for a := range systems {
		for seq := range sequences {
			for b := range systems {
				if b != a {
					tab.gaps = append(tab.gaps, float64(100*a+10*seq+b))
				}
			}
		}
	}
	for a := range systems {
		for seq := range sequences {
			for b := range systems {
				if b == a {
					continue
				}
				if got, want := tab.gap(seq, a, b), float64(100*a+10*seq+b); got != want {
					t.Errorf("gap(%d, %d, %d) = %v, want %v", seq, a, b, got, want)
				}
			}
		}
	}
}

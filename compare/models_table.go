package compare

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// WriteModelsTable writes CheckModels' status of the models folder dir as
// `storyeval models` prints it: per metric a row (enabled or disabled, the
// files found), then a row per missing file (its path under dir, what it
// is and where the original release publishes it) and per invalid file
// (its problem on one line).
func WriteModelsTable(w io.Writer, dir string, status []ModelStatus) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, s := range status {
		state := "enabled"
		if !s.Enabled {
			state = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Metric, state, strings.Join(s.Found, ", "))
		for _, m := range s.Missing {
			fmt.Fprintf(tw, "\tmissing %s\t%s: %s\n", filepath.Join(dir, filepath.FromSlash(m.Path)), m.What, m.Source)
		}
		for _, p := range s.Invalid {
			fmt.Fprintf(tw, "\tinvalid %s\t%s\n", filepath.Join(dir, filepath.FromSlash(p.Path)), strings.ReplaceAll(p.Error, "\n", " "))
		}
	}
	return tw.Flush()
}

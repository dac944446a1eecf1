package compare

import "context"

// demonstrated is a metric of demonstration models: its columns carry
// the label.
type demonstrated struct {
	Metric
	label string
}

// demonstration labels m's columns; a metric counting cache hits keeps
// its counter (Compare finds it on the outer value).
func demonstration(m Metric, label string) Metric {
	if c, ok := m.(counted); ok {
		c.Metric = demonstrated{c.Metric, label}
		return c
	}
	return demonstrated{m, label}
}

// Score implements Metric.
func (d demonstrated) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	cols, err := d.Metric.Score(ctx, in)
	for i := range cols {
		cols[i].Demonstration = d.label
	}
	return cols, err
}

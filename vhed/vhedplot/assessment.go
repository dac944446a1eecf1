package vhedplot

import "github.com/storyeval/storyeval/vhed"

// SaveAssessment writes the figures (SaveFigures) of an assessment run:
// one series per scorer of jobs, with its report from vhed.AssessAll.
func SaveAssessment(dir string, jobs []vhed.NamedScorer, reports []vhed.AssessReport) error {
	series := make([]Series, len(jobs))
	for i, j := range jobs {
		series[i] = Series{Name: j.Name, Report: reports[i]}
	}
	return SaveFigures(dir, series)
}

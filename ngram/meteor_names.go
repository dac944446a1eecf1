package ngram

import (
	"fmt"
	"slices"
	"strings"
)

// MeteorTaskByName returns the task of the jar's -t name (adq, rank,
// hter, util, li or tune; any case).
func MeteorTaskByName(name string) (MeteorTask, error) {
	task := MeteorTask(strings.ToLower(name))
	if !slices.Contains(MeteorTasks, task) {
		names := make([]string, len(MeteorTasks))
		for i, t := range MeteorTasks {
			names[i] = string(t)
		}
		return "", fmt.Errorf("want one of %s, got %q", strings.Join(names, ", "), name)
	}
	return task, nil
}

// MeteorNormalizationByName returns the normalization named after the
// jar's flags (any case): norm (-norm, COCO), nopunct (-norm -noPunct),
// lower (-lower) or none (neither, as the AREL/MSR VIST scripts).
func MeteorNormalizationByName(name string) (MeteorNormalization, error) {
	switch strings.ToLower(name) {
	case "norm":
		return MeteorNormalize, nil
	case "nopunct":
		return MeteorNormalizeNoPunct, nil
	case "lower":
		return MeteorLowerCase, nil
	case "none":
		return MeteorNoNormalize, nil
	}
	return 0, fmt.Errorf("want norm, nopunct, lower or none, got %q", name)
}

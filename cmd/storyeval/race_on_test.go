//go:build race

package main

// raceDetector says whether the test binary was built with -race, whose
// shadow memory makes a child process's RSS several times what the
// command itself needs.
const raceDetector = true

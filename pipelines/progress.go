package pipelines

import "transmute/internal/progress"

// The progress meters of the stages: process-wide, so a fallback for the jobs whose
// progress launch does not poll from the job's Beam counters (cmd/launch/live.go).
var (
	evalMeter       = progress.Stderr("transmute", "problems evaluated")
	mbtaMeter       = progress.Stderr("transmute mbta", "problems")
	effCheckMeter   = progress.Stderr("transmute efficiency", "problems on the default tests")
	effProfileMeter = progress.Stderr("transmute efficiency", "programs profiled")
	consMeter       = progress.Stderr("transmute consistency", "problems")
	propMeter       = progress.Stderr("transmute properties", "problems")
)

// FinishProgress ends the meters' updating lines (on a terminal).
func FinishProgress() {
	for _, m := range []*progress.Meter{evalMeter, mbtaMeter, effCheckMeter, effProfileMeter, consMeter, propMeter, growthMeter} {
		m.Finish()
	}
}

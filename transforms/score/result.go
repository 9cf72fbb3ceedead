package score

import (
	"transmute/schemas"
	"transmute/transforms/execute"
	"transmute/transforms/values"
)

// JudgeTest fills row (its Status preset to NoTranslation) for test ti: the oracle's
// status and output from oracle, the program's status and output (its error when it
// did not return) from got when it ran, and Match: both returned and the values are
// equal. The evaluate and MBTA jobs judge their CA rows this one way.
func JudgeTest(row *schemas.ResultRow, ti int, oracle execute.Result, got execute.Result, ran bool, ret values.Type, tol values.Tolerance) {
	if ti < len(oracle.Tests) {
		row.OracleStatus = oracle.Tests[ti].Status
		row.Expected = oracle.Tests[ti].Output
	}
	if ran && ti < len(got.Tests) {
		row.Status = got.Tests[ti].Status
		row.Actual = got.Tests[ti].Output
		if row.Status != schemas.StatusOK {
			row.Actual = got.Tests[ti].Error
		}
	}
	row.Match = row.OracleStatus == schemas.StatusOK && row.Status == schemas.StatusOK &&
		values.Equal(ret, row.Expected, row.Actual, tol)
}

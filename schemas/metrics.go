package schemas

// MetricCheckSeconds is the scores row (translator "", metric) of the properties
// job holding the time it spent in inspections and property checks.
const MetricCheckSeconds = "check_seconds"

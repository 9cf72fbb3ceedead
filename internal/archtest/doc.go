// Package archtest holds the architecture checks of the module (its test file):
// only the Beam wiring (transmute/pipelines) and the launcher that runs it
// (transmute/cmd/launch) may depend on Apache Beam; every domain, I/O, schema and
// report package stays plain Go, so that cmd/report and the tests of the domain
// code never link the SDK.
package archtest

package pipelines

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/parquet-go/parquet-go"
	"gocloud.dev/blob"

	"transmute/internal/proctree"
	"transmute/io/sink"
	"transmute/schemas"
	"transmute/transforms/sandbox"
)

// Manifest describes a run: what was asked, with which versions, what came out.
type Manifest struct {
	Run string `json:"run"`
	// SchemaVersion is the tables' layout (schemas.SchemaVersion); Version and
	// Commit are the launcher binary's (sink.BuildInfo). Every Parquet file carries
	// the same three in its key-value metadata.
	SchemaVersion string            `json:"schema_version"`
	Version       string            `json:"transmute_version"`
	Commit        string            `json:"transmute_commit"`
	Command       string            `json:"command"`
	Config        Config            `json:"config"`
	Start         time.Time         `json:"start"`
	End           time.Time         `json:"end"`
	Seconds       float64           `json:"seconds"`
	Versions      map[string]string `json:"versions"`
	Protections   []string          `json:"sandbox_protections"`
	Counts        map[string]int64  `json:"counts"`
	Tables        map[string]string `json:"tables"`
	// Shards names every shard of each table (keys relative to the output): the
	// published run is exactly these files (docs/OUTPUT_LIFECYCLE.md).
	Shards map[string][]string `json:"shards"`
	// Workers are the records of the worker processes (pipelines.RecordWorker);
	// Versions and Protections are the first one's.
	Workers []WorkerInfo `json:"workers,omitempty"`
	// Counters are the run's Beam counters (namespace transmute), summed over steps:
	// work done per stage and bundles_<stage>, how many bundles the runner ran it in.
	Counters map[string]int64 `json:"counters,omitempty"`
}

// Counters sums the committed transmute counters of a finished run by name (nil
// when the runner returned no result).
func Counters(res beam.PipelineResult) map[string]int64 {
	if res == nil {
		return nil
	}
	out := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "transmute" {
			out[c.Name()] += c.Result()
		}
	}
	return out
}

// Versions of the module's key dependencies and of the toolchains.
func Versions() map[string]string {
	v := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v["go"] = bi.GoVersion
		for _, d := range bi.Deps {
			for _, name := range []string{"github.com/apache/beam/sdks/v2", "github.com/parquet-go/parquet-go",
				"gocloud.dev", "github.com/tree-sitter/go-tree-sitter"} {
				if d.Path == name {
					v[name] = d.Version
				}
			}
		}
	}
	for name, args := range map[string][]string{"java": {"java", "-version"}, "python": {"/usr/bin/python3", "--version"}, "g++": {"g++", "-dumpfullversion"}} {
		out, err := proctree.CombinedOutput(exec.Command(args[0], args[1:]...))
		if err != nil {
			v[name] = "unavailable"
			continue
		}
		v[name] = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	return v
}

// Finish makes sure every table exists (an empty shard with the schema when the run
// produced no rows), counts rows from the Parquet footers, and writes manifest.json.
func Finish(ctx context.Context, b *blob.Bucket, m *Manifest, tables []string) error {
	m.Counts = map[string]int64{}
	m.Tables = map[string]string{}
	m.Shards = map[string][]string{}
	for _, t := range tables {
		n, shards, err := countRows(ctx, b, t)
		if err != nil {
			return err
		}
		if shards == 0 {
			if err := writeEmpty(ctx, b, t); err != nil {
				return err
			}
		}
		keys, err := sink.ListShards(ctx, b, t)
		if err != nil {
			return err
		}
		m.Counts[t] = n
		m.Shards[t] = keys
		m.Tables[t] = t + "/*.parquet"
	}
	m.SchemaVersion = schemas.SchemaVersion
	build := sink.BuildInfo()
	m.Version, m.Commit = build.Version, build.Commit
	m.End = time.Now().UTC()
	m.Seconds = m.End.Sub(m.Start).Seconds()
	// The workers' toolchains and protections, which ran the programs; the launcher's
	// own when no worker left a record (RecordWorker).
	workers, err := readWorkers(ctx, b)
	if err != nil {
		return err
	}
	m.Protections = sandbox.Protections()
	if len(workers) > 0 {
		m.Workers = workers
		if m.Versions == nil {
			m.Versions = map[string]string{}
		}
		for k, v := range workers[0].Versions {
			m.Versions[k] = v
		}
		m.Protections = workers[0].Protections
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return b.WriteAll(ctx, sink.ManifestKey, data, nil)
}

// countRows counts a table's rows from its shards' footers; a listing or read error
// is an error, never a low count.
func countRows(ctx context.Context, b *blob.Bucket, table string) (int64, int, error) {
	keys, err := sink.ListShards(ctx, b, table)
	if err != nil {
		return 0, 0, err
	}
	var n int64
	for _, k := range keys {
		data, err := b.ReadAll(ctx, k)
		if err != nil {
			return 0, 0, err
		}
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", k, err)
		}
		n += f.NumRows()
	}
	return n, len(keys), nil
}

func writeEmpty(ctx context.Context, b *blob.Bucket, table string) error {
	var err error
	switch table {
	case "problems":
		_, err = sink.WriteShard[schemas.Problem](ctx, b, table, nil)
	case "translations":
		_, err = sink.WriteShard[schemas.TranslationRow](ctx, b, table, nil)
	case "executions":
		_, err = sink.WriteShard[schemas.ExecutionRow](ctx, b, table, nil)
	case "results":
		_, err = sink.WriteShard[schemas.ResultRow](ctx, b, table, nil)
	case "scores":
		_, err = sink.WriteShard[schemas.ScoreRow](ctx, b, table, nil)
	case "errors":
		_, err = sink.WriteShard[schemas.ErrorRow](ctx, b, table, nil)
	case "fidelity":
		_, err = sink.WriteShard[schemas.FidelityRow](ctx, b, table, nil)
	case "verdicts":
		_, err = sink.WriteShard[schemas.VerdictRow](ctx, b, table, nil)
	case "variants":
		_, err = sink.WriteShard[schemas.VariantRow](ctx, b, table, nil)
	case "mutant_results":
		_, err = sink.WriteShard[schemas.MutantResultRow](ctx, b, table, nil)
	case "profiles":
		_, err = sink.WriteShard[schemas.ProfileRow](ctx, b, table, nil)
	case "noise":
		_, err = sink.WriteShard[schemas.NoiseRow](ctx, b, table, nil)
	case "consistency_results":
		_, err = sink.WriteShard[schemas.ConsistencyRow](ctx, b, table, nil)
	case "repairs":
		_, err = sink.WriteShard[schemas.RepairRow](ctx, b, table, nil)
	case "transformations":
		_, err = sink.WriteShard[schemas.TransformationRow](ctx, b, table, nil)
	case "property_results":
		_, err = sink.WriteShard[schemas.PropertyResultRow](ctx, b, table, nil)
	case SearchTable:
		_, err = sink.WriteShard[schemas.SearchRow](ctx, b, table, nil)
	default:
		err = fmt.Errorf("unknown table %q", table)
	}
	return err
}

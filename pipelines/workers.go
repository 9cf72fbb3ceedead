package pipelines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gocloud.dev/blob"

	"transmute/io/blobs"
	"transmute/transforms/sandbox"
)

// WorkerInfo is what a worker process had to run the programs with: its toolchains and
// the sandbox protections its machine allows. On a job server these are the worker's,
// not the submitting machine's, and the manifest reports them.
type WorkerInfo struct {
	Host        string            `json:"host"`
	PID         int               `json:"pid"`
	Versions    map[string]string `json:"versions"`
	Protections []string          `json:"sandbox_protections"`
}

// workersDir holds the workers' records in a run's staging directory; publishing
// installs only the tables' shards, so the records go with the staging directory.
const workersDir = "_workers/"

func init() {
	register.DoFn2x1[context.Context, []byte, error](&recordWorkerFn{})
}

// RecordWorker adds a branch of one element whose DoFn writes the WorkerInfo of the
// worker that runs it under output (the run's staged output); Finish reads it into
// the manifest. One record: the workers of a job share one image.
func RecordWorker(s beam.Scope, output string) {
	s = s.Scope("RecordWorker")
	beam.ParDo0(s, &recordWorkerFn{Output: output}, beam.Impulse(s))
}

type recordWorkerFn struct {
	Output string
}

func (f *recordWorkerFn) ProcessElement(ctx context.Context, _ []byte) error {
	host, _ := os.Hostname()
	w := WorkerInfo{Host: host, PID: os.Getpid(), Versions: Versions(), Protections: sandbox.Protections()}
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	b, err := blobs.Open(ctx, f.Output)
	if err != nil {
		return err
	}
	defer b.Close()
	return b.WriteAll(ctx, fmt.Sprintf("%s%s-%d.json", workersDir, host, w.PID), data, nil)
}

// readWorkers reads the workers' records of a staged run, sorted by host and pid.
func readWorkers(ctx context.Context, b *blob.Bucket) ([]WorkerInfo, error) {
	var out []WorkerInfo
	it := b.List(&blob.ListOptions{Prefix: workersDir})
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", workersDir, err)
		}
		data, err := b.ReadAll(ctx, obj.Key)
		if err != nil {
			return nil, err
		}
		var w WorkerInfo
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, fmt.Errorf("%s: %w", obj.Key, err)
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Host != out[j].Host {
			return out[i].Host < out[j].Host
		}
		return out[i].PID < out[j].PID
	})
	return out, nil
}

package pipelines

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"transmute/io/blobs"
	"transmute/io/blobs/blobstest"
	"transmute/io/sink"
)

// TestWorkerRecordInManifest: the record a worker writes into the staged output
// replaces the launcher's toolchain versions and protections in the manifest, and
// without a record the launcher's own stay.
func TestWorkerRecordInManifest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := (&recordWorkerFn{Output: dir}).ProcessElement(ctx, nil); err != nil {
		t.Fatal(err)
	}
	b := blobstest.Open(t, dir)
	// A second, made-up worker ("~" sorts after any host name, so it comes second).
	other := WorkerInfo{Host: "~zz-other", PID: 7, Versions: map[string]string{"java": "other"}, Protections: []string{"rlimits"}}
	data, _ := json.Marshal(other)
	if err := b.WriteAll(ctx, workersDir+"zz-other-7.json", data, nil); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Versions: map[string]string{"java": "launcher's java", "go": "launcher's go"}}
	if err := Finish(ctx, b, m, nil); err != nil {
		t.Fatal(err)
	}
	if len(m.Workers) != 2 || m.Workers[0].PID != os.Getpid() || m.Workers[1].PID != 7 {
		t.Fatalf("workers = %+v; want this process, then the other", m.Workers)
	}
	if m.Versions["java"] != Versions()["java"] || m.Versions["java"] == "launcher's java" {
		t.Errorf("java = %q; want the worker's %q", m.Versions["java"], Versions()["java"])
	}
	if m.Versions["go"] == "launcher's go" {
		t.Errorf("go = %q: the worker's build info should replace it", m.Versions["go"])
	}
	raw, err := b.ReadAll(ctx, sink.ManifestKey)
	if err != nil {
		t.Fatal(err)
	}
	var back Manifest
	if err := json.Unmarshal(raw, &back); err != nil || len(back.Workers) != 2 {
		t.Errorf("manifest.json workers: %v, %+v", err, back.Workers)
	}

	// No record: the launcher's versions stay.
	empty, err := blobs.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	m = &Manifest{Versions: map[string]string{"java": "launcher's java"}}
	if err := Finish(ctx, empty, m, nil); err != nil {
		t.Fatal(err)
	}
	if m.Versions["java"] != "launcher's java" || m.Workers != nil || len(m.Protections) == 0 {
		t.Errorf("without a record: versions %v, workers %v, protections %v", m.Versions, m.Workers, m.Protections)
	}
}

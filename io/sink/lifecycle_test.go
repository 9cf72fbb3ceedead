package sink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

// stageRun writes a run's tables under its staging prefix and its manifest last,
// as launch does (pipelines.Finish), and returns the staging prefix.
func stageRun(t *testing.T, b *blob.Bucket, run string, rows map[string][]schemas.ScoreRow) string {
	t.Helper()
	ctx := context.Background()
	staging := StagingPrefix(NewStagingID(run))
	m := stagedManifest{Run: run, Shards: map[string][]string{}}
	for table, rs := range rows {
		// two shards per table, as a run with --shards 2 writes
		for i := 0; i < len(rs); i += (len(rs) + 1) / 2 {
			end := min(len(rs), i+(len(rs)+1)/2)
			k, err := WriteShard(ctx, b, staging+table, rs[i:end]) // PrefixedBucket would close b
			if err != nil {
				t.Fatal(err)
			}
			m.Shards[table] = append(m.Shards[table], strings.TrimPrefix(k, staging))
		}
	}
	data, _ := json.Marshal(m)
	if err := b.WriteAll(ctx, staging+ManifestKey, data, nil); err != nil {
		t.Fatal(err)
	}
	return staging
}

func scoreRows(run string, n int) []schemas.ScoreRow {
	var rs []schemas.ScoreRow
	for i := 0; i < n; i++ {
		rs = append(rs, schemas.ScoreRow{Run: run, Translator: "t", Metric: "pass_rate", N: int64(i)})
	}
	return rs
}

// published reads table through the manifest and returns the run of each row.
func published(t *testing.T, b *blob.Bucket, table string) []string {
	t.Helper()
	rows, err := Read[schemas.ScoreRow](context.Background(), b, table)
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, r := range rows {
		runs = append(runs, r.Run)
	}
	sort.Strings(runs)
	return runs
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestPublishReplacesTheRunAndRemovesStaging(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	if err := Publish(ctx, b, stageRun(t, b, "old", map[string][]schemas.ScoreRow{"scores": scoreRows("old", 4), "extra": scoreRows("old", 2)})); err != nil {
		t.Fatal(err)
	}
	if err := Publish(ctx, b, stageRun(t, b, "new", map[string][]schemas.ScoreRow{"scores": scoreRows("new", 3)})); err != nil {
		t.Fatal(err)
	}
	if got := published(t, b, "scores"); !reflect.DeepEqual(got, repeat("new", 3)) {
		t.Fatalf("scores after the second publish: %v", got)
	}
	live, err := LiveShards(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range live {
		if !strings.HasPrefix(k, "scores/") {
			t.Errorf("a shard of the previous run's other table survived: %s", k)
		}
	}
	// the glob readers use (scores/part-*) sees the new run only
	if keys, _ := ListShards(ctx, b, "scores"); len(keys) != 2 {
		t.Errorf("scores/part-* lists %d shards, want the new run's 2", len(keys))
	}
	for _, k := range []string{JournalKey, StagingDir} {
		if it, _ := b.List(&blob.ListOptions{Prefix: k}).Next(ctx); it != nil {
			t.Errorf("%s left behind: %s", k, it.Key)
		}
	}
}

// TestCrashAtEveryPublishStep stops the publish before each of its steps, as a kill
// would: until manifest.json is replaced, the previous run is what Read returns; after
// Recover, the new run is, whole.
func TestCrashAtEveryPublishStep(t *testing.T) {
	ctx := context.Background()
	crash := errors.New("crash")
	for step := 0; ; step++ {
		b := memblob.OpenBucket(nil)
		if err := Publish(ctx, b, stageRun(t, b, "old", map[string][]schemas.ScoreRow{"scores": scoreRows("old", 5), "errors": scoreRows("old", 2)})); err != nil {
			t.Fatal(err)
		}
		staging := stageRun(t, b, "new", map[string][]schemas.ScoreRow{"scores": scoreRows("new", 6), "errors": scoreRows("new", 1)})
		n, manifestDone := 0, false
		publishHook = func(s string) error {
			if n == step {
				return crash
			}
			n++
			if s == "manifest" {
				manifestDone = true
			}
			return nil
		}
		err := Publish(ctx, b, staging)
		publishHook = nil
		if err == nil {
			b.Close()
			if step < 3 {
				t.Fatalf("publish has only %d steps", step)
			}
			return
		}
		want := "old"
		if manifestDone {
			want = "new"
		}
		if got := published(t, b, "scores"); len(got) == 0 || got[0] != want || !reflect.DeepEqual(got, repeat(want, len(got))) {
			t.Fatalf("step %d: scores read %v during the interrupted publish, want only %s rows", step, got, want)
		}
		r, err := Recover(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if r.RolledForward != "new" {
			t.Fatalf("step %d: recover rolled forward %q", step, r.RolledForward)
		}
		if got := published(t, b, "scores"); !reflect.DeepEqual(got, repeat("new", 6)) {
			t.Fatalf("step %d: scores after recover %v", step, got)
		}
		if got := published(t, b, "errors"); !reflect.DeepEqual(got, repeat("new", 1)) {
			t.Fatalf("step %d: errors after recover %v", step, got)
		}
		if keys, _ := ListShards(ctx, b, "scores"); len(keys) != 2 {
			t.Fatalf("step %d: %d live scores shards after recover, want 2", step, len(keys))
		}
		b.Close()
	}
}

func TestRecoverRemovesAbandonedStaging(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	if err := Publish(ctx, b, stageRun(t, b, "old", map[string][]schemas.ScoreRow{"scores": scoreRows("old", 3)})); err != nil {
		t.Fatal(err)
	}
	// a killed run: shards staged, no journal
	staging := stageRun(t, b, "killed", map[string][]schemas.ScoreRow{"scores": scoreRows("killed", 2)})
	r, err := Recover(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if r.RolledForward != "" || len(r.Abandoned) != 1 || r.Abandoned[0] != staging {
		t.Fatalf("recover: %+v, want %s abandoned", r, staging)
	}
	if got := published(t, b, "scores"); !reflect.DeepEqual(got, repeat("old", 3)) {
		t.Fatalf("scores after recover %v", got)
	}
	if it, _ := b.List(&blob.ListOptions{Prefix: StagingDir}).Next(ctx); it != nil {
		t.Errorf("staging left: %s", it.Key)
	}
}

func TestLock(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	l, err := AcquireLock(ctx, b, "first", "_staging/a/", "")
	if err != nil {
		t.Fatal(err)
	}
	// a second run while the first holds the output: refused, naming the holder
	_, err = AcquireLock(ctx, b, "second", "_staging/b/", "")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), `"first"`) {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	l2, err := AcquireLock(ctx, b, "second", "_staging/b/", "")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release(ctx)

	// a lock left by a process of this host that is gone is taken over
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	dead, _ := json.Marshal(LockInfo{Run: "killed", Host: host, PID: cmd.Process.Pid, PIDStart: "1"})
	if err := b.WriteAll(ctx, LockKey, dead, nil); err != nil {
		t.Fatal(err)
	}
	l3, err := AcquireLock(ctx, b, "third", "_staging/c/", "")
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if !strings.Contains(l3.Stale, `"killed"`) {
		t.Errorf("Stale = %q", l3.Stale)
	}
	l3.Release(ctx)

	// a lock of another host is never taken for dead
	other, _ := json.Marshal(LockInfo{Run: "remote", Host: host + "-elsewhere", PID: 1})
	if err := b.WriteAll(ctx, LockKey, other, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireLock(ctx, b, "fourth", "_staging/d/", ""); !errors.Is(err, ErrLocked) {
		t.Fatalf("another host's lock: %v", err)
	}
}

// TestLockLocal: on a local directory the lock is an O_EXCL file, refused while held.
func TestLockLocal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{Metadata: fileblob.MetadataDontWrite})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	l, err := AcquireLock(ctx, b, "first", "_staging/a/", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireLock(ctx, b, "second", "_staging/b/", dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second local lock: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/" + LockKey); !os.IsNotExist(err) {
		t.Fatalf("lock file after release: %v", err)
	}
}

// TestLockLocalRace: launches started at the same instant into one local output:
// exactly one takes the lock (fileblob's IfNotExist, a check-then-rename, let two).
func TestLockLocalRace(t *testing.T) {
	ctx := context.Background()
	for round := 0; round < 300; round++ {
		dir := t.TempDir()
		b, err := fileblob.OpenBucket(dir, &fileblob.Options{Metadata: fileblob.MetadataDontWrite})
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		errs := make(chan error, n)
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			go func(i int) {
				<-start
				_, err := AcquireLock(ctx, b, fmt.Sprint("run", i), fmt.Sprintf("_staging/%d/", i), dir)
				errs <- err
			}(i)
		}
		close(start)
		won := 0
		for i := 0; i < n; i++ {
			if err := <-errs; err == nil {
				won++
			} else if !errors.Is(err, ErrLocked) {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		b.Close()
		if won != 1 {
			t.Fatalf("round %d: %d of %d launches took the lock", round, won, n)
		}
	}
}

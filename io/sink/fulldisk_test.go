package sink

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

// smallDisk mounts a tmpfs of size bytes for the test, or skips it where mounting
// is not permitted (not root, no CAP_SYS_ADMIN).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// smallBucket is a bucket on a smallDisk, opened as blobs.Open opens a local output.
func smallBucket(t *testing.T, size string) (string, *blob.Bucket) {
	t.Helper()
	dir := smallDisk(t, size)
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{Metadata: fileblob.MetadataDontWrite, NoTempDir: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return dir, b
}

// fill takes every free byte of the file system of dir but leave, with one file.
func fill(t *testing.T, dir string, leave int64) string {
	t.Helper()
	p := filepath.Join(dir, "_filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	st, _ := f.Stat()
	if err := f.Truncate(max(st.Size()-leave, 0)); err != nil {
		t.Fatal(err)
	}
	return p
}

// globShards lists the files a glob over OUT/<table>/*.parquet reads.
func globShards(t *testing.T, dir, table string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, table, "*.parquet"))
	var keys []string
	for _, f := range files {
		keys = append(keys, table+"/"+filepath.Base(f))
	}
	sort.Strings(keys)
	return keys
}

func manifestShards(t *testing.T, b *blob.Bucket, table string) []string {
	t.Helper()
	keys, err := Shards(context.Background(), b, table)
	if err != nil {
		t.Fatal(err)
	}
	keys = append([]string(nil), keys...)
	sort.Strings(keys)
	return keys
}

// TestPublishOnAFullDisk: a publish that runs out of space while installing the new
// run's shards undoes itself: the previous run stays what the manifest and a glob
// over the tables both read, no journal is left, and once space returns the next
// run publishes.
func TestPublishOnAFullDisk(t *testing.T) {
	ctx := context.Background()
	dir, b := smallBucket(t, "2m")
	tables := func(run string) map[string][]schemas.ScoreRow {
		return map[string][]schemas.ScoreRow{"scores": scoreRows(run, 8), "errors": scoreRows(run, 4), "results": scoreRows(run, 6)}
	}
	if err := Publish(ctx, b, stageRun(t, b, "A", tables("A"))); err != nil {
		t.Fatal(err)
	}
	before := globShards(t, dir, "scores")
	staging := stageRun(t, b, "B", tables("B"))
	// Room for the journal and a shard or two, not for the six.
	filler := fill(t, dir, 12<<10)
	err := Publish(ctx, b, staging)
	if err == nil {
		t.Fatal("publish on a full disk succeeded: fill left too much room")
	}
	if !errors.Is(err, syscall.ENOSPC) && !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("publish failed with %v, want ENOSPC", err)
	}
	if !strings.Contains(err.Error(), "the previous run stays published") {
		t.Errorf("the error does not say what happened to the output: %v", err)
	}
	checkPublished(t, b, dir, "A", " after the failed publish", "scores", "errors", "results")
	if !reflect.DeepEqual(globShards(t, dir, "scores"), before) {
		t.Errorf("scores shards %v, were %v", globShards(t, dir, "scores"), before)
	}
	if _, err := os.Stat(filepath.Join(dir, JournalKey)); err == nil {
		t.Errorf("%s left after the publish was undone", JournalKey)
	}
	// The failed run removes its staging (as launch does); space returns.
	if err := Clear(ctx, b, strings.TrimSuffix(staging, "/")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filler)
	r, err := Recover(ctx, b)
	if err != nil || r.RolledBack != "" || r.RolledForward != "" {
		t.Fatalf("recover after the undone publish: %+v %v", r, err)
	}
	if err := Publish(ctx, b, stageRun(t, b, "C", tables("C"))); err != nil {
		t.Fatalf("publish once space returned: %v", err)
	}
	checkPublished(t, b, dir, "C", "", "scores", "errors", "results")
}

// TestRecoverOnAStillFullDisk: a publish cut short while installing (a crash, the
// journal kept) cannot be finished while the disk is full: Recover undoes it and
// says why, and the previous run stays published.
func TestRecoverOnAStillFullDisk(t *testing.T) {
	ctx := context.Background()
	dir, b := smallBucket(t, "2m")
	tables := func(run string) map[string][]schemas.ScoreRow {
		return map[string][]schemas.ScoreRow{"scores": scoreRows(run, 8), "errors": scoreRows(run, 4)}
	}
	if err := Publish(ctx, b, stageRun(t, b, "A", tables("A"))); err != nil {
		t.Fatal(err)
	}
	staging := stageRun(t, b, "B", tables("B"))
	n := 0
	publishHook = func(s string) error {
		if n++; n == 2 { // one shard of B installed
			return errors.New("crash")
		}
		return nil
	}
	err := Publish(ctx, b, staging)
	publishHook = nil
	if err == nil {
		t.Fatal("the crash did not stop the publish")
	}
	fill(t, dir, 0)
	r, err := Recover(ctx, b)
	if err != nil {
		t.Fatalf("recover on a full disk: %v", err)
	}
	if r.RolledBack != "B" || !strings.Contains(r.Why, "no space left") {
		t.Errorf("recover: %+v, want B's publish undone for want of space", r)
	}
	checkPublished(t, b, dir, "A", "", "scores", "errors")
	if _, err := os.Stat(filepath.Join(dir, JournalKey)); err == nil {
		t.Errorf("%s left after the publish was undone", JournalKey)
	}
}

// TestRecoverWithoutStaging: a journal whose staging directory is gone (what a
// failed publish left before it could undo itself) is undone, not a recovery that
// fails at every later start.
func TestRecoverWithoutStaging(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	staging := publishAStageB(t, b)
	n := 0
	publishHook = func(string) error {
		if n++; n == 2 {
			return errors.New("crash")
		}
		return nil
	}
	Publish(ctx, b, staging)
	publishHook = nil
	if err := Clear(ctx, b, strings.TrimSuffix(staging, "/")); err != nil {
		t.Fatal(err)
	}
	r, err := Recover(ctx, b)
	if err != nil || r.RolledBack != "B" || !strings.Contains(r.Why, "staging") {
		t.Fatalf("recover: %+v %v", r, err)
	}
	if got := published(t, b, "scores"); !reflect.DeepEqual(got, repeat("A", 4)) {
		t.Errorf("scores %v, want A's", got)
	}
	live, _ := LiveShards(ctx, b)
	if named := manifestShards(t, b, "scores"); !reflect.DeepEqual(live, named) {
		t.Errorf("live shards %v, the manifest names %v", live, named)
	}
}

// TestRecoverUnreadableJournal: a journal cut short (a write on a full disk that an
// older writer renamed into place) means the publish never began: Recover deletes
// it and says so, and the previous run stays published.
func TestRecoverUnreadableJournal(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	staging := publishAStageB(t, b)
	if err := b.WriteAll(ctx, JournalKey, nil, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Recover(ctx, b)
	if err != nil || r.RolledBack == "" || !strings.Contains(r.Why, "unreadable") {
		t.Fatalf("recover: %+v %v", r, err)
	}
	if len(r.Abandoned) != 1 || r.Abandoned[0] != staging {
		t.Errorf("abandoned %v, want %s", r.Abandoned, staging)
	}
	if ok, _ := b.Exists(ctx, JournalKey); ok {
		t.Error("the unreadable journal is still there")
	}
	if got := published(t, b, "scores"); !reflect.DeepEqual(got, repeat("A", 4)) {
		t.Errorf("scores %v, want A's", got)
	}
}

// checkPublished checks that each table reads only run's rows (when says when,
// for the message) and that a glob of its directory finds the shards the
// manifest names.
func checkPublished(t *testing.T, b *blob.Bucket, dir, run, when string, tables ...string) {
	t.Helper()
	for _, table := range tables {
		if got := published(t, b, table); len(got) == 0 || !reflect.DeepEqual(got, repeat(run, len(got))) {
			t.Errorf("%s read %v%s, want %s's rows only", table, got, when, run)
		}
		if g, m := globShards(t, dir, table), manifestShards(t, b, table); !reflect.DeepEqual(g, m) {
			t.Errorf("%s: a glob reads %v, the manifest names %v", table, g, m)
		}
	}
}

// publishAStageB publishes run A's four scores, stages run B's and returns B's
// staging directory.
func publishAStageB(t *testing.T, b *blob.Bucket) string {
	t.Helper()
	if err := Publish(context.Background(), b, stageRun(t, b, "A", map[string][]schemas.ScoreRow{"scores": scoreRows("A", 4)})); err != nil {
		t.Fatal(err)
	}
	return stageRun(t, b, "B", map[string][]schemas.ScoreRow{"scores": scoreRows("B", 4)})
}

package sink

// The output lifecycle (docs/OUTPUT_LIFECYCLE.md): a run writes every table under
// _staging/<run id>/ of the output and publishes it at the end; manifest.json is the
// commit record and names the published shards; a journal (_publish.json) written
// before the first change makes publishing resumable, and a lock (_lock.json) keeps a
// second run out. Everything here goes through gocloud blob calls only, so it works
// the same on a local disk and in a cloud bucket.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"transmute/internal/procfs"
)

// Keys of the lifecycle's objects at the root of an output.
const (
	ManifestKey = "manifest.json"
	LockKey     = "_lock.json"
	JournalKey  = "_publish.json"
	StagingDir  = "_staging/"
)

// StagingPrefix is where the run with staging id id writes its tables.
func StagingPrefix(id string) string { return StagingDir + id + "/" }

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// NewStagingID names a run's staging directory: its run name made path-safe plus a
// random suffix, so two runs with the same name never share one.
func NewStagingID(run string) string {
	return strings.Trim(unsafeID.ReplaceAllString(run, "_"), "_.") + "-" + randHex(4)
}

// LockInfo is the content of _lock.json: who holds the output.
type LockInfo struct {
	Run      string    `json:"run"`
	Staging  string    `json:"staging"`
	Host     string    `json:"host"`
	PID      int       `json:"pid"`
	PIDStart string    `json:"pid_start"` // /proc start time of PID, to tell a reused pid
	Since    time.Time `json:"since"`
}

// Lock is a held output lock.
type Lock struct {
	b    *blob.Bucket
	Info LockInfo
	// Stale describes the dead run whose lock was taken over ("" if none).
	Stale string
}

// ErrLocked is returned by AcquireLock when another live run holds the output.
var ErrLocked = errors.New("output is in use by another run")

// AcquireLock creates _lock.json if it does not exist (a conditional write, atomic
// on every gocloud driver that supports IfNotExist). A lock left by a run of this
// host whose process is gone (kill -9, a crash) is stale and is taken over; a live
// one, or one from another host, makes this fail with ErrLocked and says who holds it.
// Writing the lock is also the check that the output is writable. localDir, when
// the output is a local directory, is that directory: the lock is then created with
// O_EXCL, since fileblob's IfNotExist is a check-then-rename that two processes can
// both pass.
func AcquireLock(ctx context.Context, b *blob.Bucket, run, staging, localDir string) (*Lock, error) {
	host, _ := os.Hostname()
	info := LockInfo{Run: run, Staging: staging, Host: host, PID: os.Getpid(), PIDStart: procStart(os.Getpid()), Since: time.Now().UTC()}
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	l := &Lock{b: b, Info: info}
	for attempt := 0; attempt < 2; attempt++ {
		exists := false
		if localDir != "" {
			err = createExclusive(filepath.Join(localDir, LockKey), data)
			exists = errors.Is(err, fs.ErrExist)
		} else {
			err = b.WriteAll(ctx, LockKey, data, &blob.WriterOptions{IfNotExist: true, ContentType: "application/json"})
			exists = gcerrors.Code(err) == gcerrors.FailedPrecondition
		}
		if err == nil {
			return l, nil
		}
		if !exists {
			return nil, fmt.Errorf("output not writable: %w", err)
		}
		old, raw, rerr := readLock(ctx, b)
		if rerr != nil {
			return nil, fmt.Errorf("%w: %s exists and cannot be read (%v); if no run is active, delete it", ErrLocked, LockKey, rerr)
		}
		if !old.dead(host) {
			return nil, fmt.Errorf("%w: run %q (pid %d on %s, since %s) holds %s; wait for it, use another --out, or delete %s if that run is gone",
				ErrLocked, old.Run, old.PID, old.Host, old.Since.Format(time.RFC3339), LockKey, LockKey)
		}
		// Re-read just before deleting, so that a lock another starter took over in
		// the meantime is not deleted.
		if _, again, err := readLock(ctx, b); err != nil || string(again) != string(raw) {
			continue
		}
		if err := b.Delete(ctx, LockKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return nil, err
		}
		l.Stale = fmt.Sprintf("run %q (pid %d on %s, since %s) died holding the output", old.Run, old.PID, old.Host, old.Since.Format(time.RFC3339))
	}
	return nil, fmt.Errorf("%w: could not take over the stale %s", ErrLocked, LockKey)
}

func createExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

func readLock(ctx context.Context, b *blob.Bucket) (LockInfo, []byte, error) {
	var info LockInfo
	raw, err := b.ReadAll(ctx, LockKey)
	if err != nil {
		return info, nil, err
	}
	return info, raw, json.Unmarshal(raw, &info)
}

// dead tells whether the lock's process is known to be gone: only decidable on the
// host that wrote it.
func (i LockInfo) dead(host string) bool {
	if i.Host != host || i.PID <= 0 {
		return false
	}
	if i.PID == os.Getpid() && i.PIDStart == procStart(i.PID) {
		return false
	}
	start := procStart(i.PID)
	return start == "" || (i.PIDStart != "" && start != i.PIDStart)
}

// procStart is field 22 of /proc/PID/stat (start time in clock ticks since boot),
// "" when the process does not exist.
func procStart(pid int) string {
	start, _ := procfs.StartTime(pid)
	return start
}

// Release deletes the lock.
func (l *Lock) Release(ctx context.Context) error {
	if err := l.b.Delete(ctx, LockKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}

// Journal is _publish.json: the publish step in progress. It is written only after
// the run's staging is complete. Finding it means "roll forward" while the staging
// is whole or manifest.json already names the new run, and "roll back" (remove the
// shards installed beside the previous run's) when the staging is gone or installing
// fails again (a full disk).
type Journal struct {
	Run     string   `json:"run"`
	Staging string   `json:"staging"` // the staging prefix, "_staging/<id>/"
	Install []string `json:"install"` // keys relative to the staging prefix, also their live keys
	Remove  []string `json:"remove"`  // live shards of the previous run that the new one does not keep
	// Preexisting are the keys of Install that were live before the publish (an
	// empty table's shard is named by its content): a roll back keeps them.
	Preexisting []string `json:"preexisting,omitempty"`
}

// stagedManifest is the part of a manifest publishing needs.
type stagedManifest struct {
	Run    string              `json:"run"`
	Shards map[string][]string `json:"shards"`
}

// Publish makes the run staged under staging (with its manifest.json written last by
// the run) the output's published run: it writes the journal, copies the staged
// shards to their live keys, replaces manifest.json, deletes the previous run's
// shards and the staging directory, and deletes the journal. Until manifest.json is
// replaced the previous run stays the published one; a crash at any point is
// finished by Recover at the next start.
func Publish(ctx context.Context, b *blob.Bucket, staging string) error {
	raw, err := b.ReadAll(ctx, staging+ManifestKey)
	if err != nil {
		return fmt.Errorf("publish: staged manifest: %w", err)
	}
	var m stagedManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("publish: staged manifest: %w", err)
	}
	j := Journal{Run: m.Run, Staging: staging}
	keep := map[string]bool{}
	for _, shards := range m.Shards {
		for _, k := range shards {
			j.Install = append(j.Install, k)
			keep[k] = true
		}
	}
	sort.Strings(j.Install)
	live, err := LiveShards(ctx, b)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	for _, k := range live {
		if !keep[k] {
			j.Remove = append(j.Remove, k)
		} else {
			j.Preexisting = append(j.Preexisting, k)
		}
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	if err := writeWhole(ctx, b, JournalKey, data); err != nil {
		return fmt.Errorf("publish: journal: %w", err)
	}
	if err := install(ctx, b, j); err != nil {
		var stop stepStopped
		if errors.As(err, &stop) {
			return err // a simulated crash: no undoing
		}
		// Installing the new run failed (a full disk: ENOSPC) before manifest.json
		// changed: remove what it installed, so that the previous run is what the
		// manifest and a glob over the tables both see.
		if rerr := rollback(ctx, b, j); rerr != nil {
			return fmt.Errorf("%w; undoing it failed too (%v): %s and %s are kept, and the next launch into this output finishes the publish or undoes it", err, rerr, JournalKey, j.Staging)
		}
		return fmt.Errorf("%w; undone: the previous run stays published (free space and run again)", err)
	}
	return finish(ctx, b, j)
}

// writeWhole writes data to key, or nothing at all: blob.WriteAll closes a writer
// whose write failed, and fileblob then renames the partial file into place (an
// empty journal on a full disk); cancelling the write first discards it.
func writeWhole(ctx context.Context, b *blob.Bucket, key string, data []byte) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := b.NewWriter(wctx, key, &blob.WriterOptions{ContentType: "application/json"})
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		cancel()
		w.Close()
		return err
	}
	return w.Close()
}

// stepStopped is a publish step stopped by publishHook, as a crash would stop it.
type stepStopped struct{ error }

func (s stepStopped) Unwrap() error { return s.error }

// publishHook, when set (tests), is called before each step of apply; an error stops
// it there, as a crash would.
var publishHook func(step string) error

// OnPublishStep, when set, is called before each step of a publish ("install KEY",
// "manifest", "remove KEY", "clean"); launch uses it for the lifecycle tests' pause.
var OnPublishStep func(step string)

func hook(step string) error {
	if OnPublishStep != nil {
		OnPublishStep(step)
	}
	if publishHook != nil {
		if err := publishHook(step); err != nil {
			return stepStopped{err}
		}
	}
	return nil
}

// install is the first half of a journal: the new shards beside the previous run's,
// then manifest.json. Until manifest.json is replaced the previous run is the
// published one; every step may be repeated.
func install(ctx context.Context, b *blob.Bucket, j Journal) error {
	for _, k := range j.Install {
		if err := hook("install " + k); err != nil {
			return err
		}
		if ok, err := b.Exists(ctx, k); err != nil {
			return fmt.Errorf("publish: %w", err)
		} else if ok {
			continue // an earlier apply of this journal installed it (bundle keys are random; an empty table's shard is named by its content)
		}
		if err := b.Copy(ctx, k, j.Staging+k, nil); err != nil {
			return fmt.Errorf("publish: install %s: %w", k, err)
		}
	}
	if err := hook("manifest"); err != nil {
		return err
	}
	if ok, err := b.Exists(ctx, j.Staging+ManifestKey); err != nil {
		return fmt.Errorf("publish: %w", err)
	} else if ok {
		if err := b.Copy(ctx, ManifestKey, j.Staging+ManifestKey, nil); err != nil {
			return fmt.Errorf("publish: manifest: %w", err)
		}
	}
	return nil
}

// finish is the second half of a journal, once manifest.json names the new run:
// the previous run's shards, the staging directory and the journal go. Every
// step may be repeated.
func finish(ctx context.Context, b *blob.Bucket, j Journal) error {
	for _, k := range j.Remove {
		if err := hook("remove " + k); err != nil {
			return err
		}
		if err := b.Delete(ctx, k); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return fmt.Errorf("publish: remove %s: %w", k, err)
		}
	}
	if err := hook("clean"); err != nil {
		return err
	}
	if err := deletePrefix(ctx, b, j.Staging); err != nil {
		return fmt.Errorf("publish: clean %s: %w", j.Staging, err)
	}
	if err := b.Delete(ctx, JournalKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("publish: journal: %w", err)
	}
	return nil
}

// rollback undoes install before manifest.json changed: it removes the shards the
// journal installed (not those that were live before), then the journal.
func rollback(ctx context.Context, b *blob.Bucket, j Journal) error {
	pre := map[string]bool{}
	for _, k := range j.Preexisting {
		pre[k] = true
	}
	for _, k := range j.Install {
		if pre[k] {
			continue
		}
		if err := b.Delete(ctx, k); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return fmt.Errorf("remove %s: %w", k, err)
		}
	}
	if err := b.Delete(ctx, JournalKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("remove %s: %w", JournalKey, err)
	}
	return nil
}

// manifestNames tells whether manifest.json names exactly the shards keys (the
// journal's new run); false when there is no manifest.
func manifestNames(ctx context.Context, b *blob.Bucket, keys []string) (bool, error) {
	raw, err := b.ReadAll(ctx, ManifestKey)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var m stagedManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return false, fmt.Errorf("%s: %w", ManifestKey, err)
	}
	var named []string
	for _, shards := range m.Shards {
		named = append(named, shards...)
	}
	sort.Strings(named)
	want := append([]string(nil), keys...)
	sort.Strings(want)
	return strings.Join(named, "\n") == strings.Join(want, "\n"), nil
}

// Recovered says what Recover found.
type Recovered struct {
	// RolledForward names the run whose interrupted publish was finished ("" if none).
	RolledForward string
	// RolledBack names the run whose interrupted publish was undone ("" if none),
	// and Why says why it could not be finished.
	RolledBack, Why string
	// Abandoned lists the staging directories of interrupted runs that were removed.
	Abandoned []string
}

// Recover runs with the lock held, before a new run starts: it finishes an
// interrupted publish (the journal exists) and removes the staging directories that
// interrupted runs left behind.
func Recover(ctx context.Context, b *blob.Bucket) (Recovered, error) {
	var r Recovered
	raw, err := b.ReadAll(ctx, JournalKey)
	switch {
	case err == nil:
		var j Journal
		if err := json.Unmarshal(raw, &j); err != nil {
			// Nothing is installed before the journal is whole: a journal cut short
			// (by an older writer on a full disk) means the publish never began.
			if err := b.Delete(ctx, JournalKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				return r, fmt.Errorf("recover: remove the unreadable %s: %w", JournalKey, err)
			}
			r.RolledBack, r.Why = "(unknown)", fmt.Sprintf("its %s is unreadable (%v), written when the publish had not begun", JournalKey, err)
			break
		}
		if err := recoverJournal(ctx, b, j, &r); err != nil {
			return r, fmt.Errorf("recover: %w (the previous run's shards are those manifest.json names; after checking them, delete %s and %s by hand)", err, JournalKey, StagingDir)
		}
	case gcerrors.Code(err) != gcerrors.NotFound:
		return r, fmt.Errorf("recover: %w", err)
	}
	it := b.List(&blob.ListOptions{Prefix: StagingDir, Delimiter: "/"})
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, ioEOF) {
			break
		}
		if err != nil {
			return r, fmt.Errorf("recover: list %s: %w", StagingDir, err)
		}
		if err := deletePrefix(ctx, b, obj.Key); err != nil {
			return r, fmt.Errorf("recover: remove %s: %w", obj.Key, err)
		}
		r.Abandoned = append(r.Abandoned, obj.Key)
	}
	return r, nil
}

// recoverJournal finishes an interrupted publish, or undoes it when it cannot be
// finished: its staging is gone (a failed run removed it) or installing fails again
// (the disk is still full).
func recoverJournal(ctx context.Context, b *blob.Bucket, j Journal, r *Recovered) error {
	replaced, err := manifestNames(ctx, b, j.Install)
	if err != nil {
		return err
	}
	if !replaced {
		staged, err := b.Exists(ctx, j.Staging+ManifestKey)
		if err != nil {
			return err
		}
		if !staged {
			r.RolledBack, r.Why = j.Run, "its staging directory is gone"
			return rollback(ctx, b, j)
		}
		if err := install(ctx, b, j); err != nil {
			r.RolledBack, r.Why = j.Run, err.Error()
			return rollback(ctx, b, j)
		}
	}
	r.RolledForward = j.Run
	return finish(ctx, b, j)
}

// LiveShards lists the published shards: <table>/part-*.parquet keys outside the
// lifecycle's own "_" directories.
func LiveShards(ctx context.Context, b *blob.Bucket) ([]string, error) {
	var out []string
	it := b.List(nil)
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, ioEOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		table, file, ok := strings.Cut(obj.Key, "/")
		if !ok || strings.HasPrefix(table, "_") || strings.Contains(file, "/") {
			continue
		}
		if strings.HasPrefix(file, "part-") && strings.HasSuffix(file, ".parquet") {
			out = append(out, obj.Key)
		}
	}
}

func deletePrefix(ctx context.Context, b *blob.Bucket, prefix string) error {
	it := b.List(&blob.ListOptions{Prefix: prefix})
	var keys []string
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, ioEOF) {
			break
		}
		if err != nil {
			return err
		}
		if !obj.IsDir {
			keys = append(keys, obj.Key)
		}
	}
	for _, k := range keys {
		if err := b.Delete(ctx, k); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return err
		}
	}
	return nil
}

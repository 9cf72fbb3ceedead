package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Protections lists the protections this process can apply, for the manifest.
func Protections() []string {
	return []string{"clean_env", "rlimits", "process_group_kill", "output_cap", "private_workdir"}
}

// Init must be called first thing in main and TestMain; a hardened sandbox re-executes
// the binary to set up namespaces, and Init runs that part (it does not return then).
func Init() {}

type capWriter struct {
	buf       bytes.Buffer
	limit     int64
	truncated bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := w.limit - int64(w.buf.Len())
	if room <= 0 {
		w.truncated = true
		return len(p), nil
	}
	if int64(len(p)) > room {
		w.buf.Write(p[:room])
		w.truncated = true
		return len(p), nil
	}
	return w.buf.Write(p)
}

func prlimitArgs(l Limits, noAS bool) []string {
	cpu := int64((l.CPUTime + time.Second - 1) / time.Second)
	args := []string{
		"--cpu=" + strconv.FormatInt(cpu, 10),
		"--fsize=" + strconv.FormatInt(l.FileSizeBytes, 10),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--nproc=" + strconv.Itoa(l.MaxProcs),
		"--core=0",
	}
	if !noAS {
		args = append(args, "--as="+strconv.FormatInt(l.MemoryBytes, 10))
	}
	return args
}

func (s *Spec) command(ctx context.Context) (*exec.Cmd, func(), error) {
	l := s.Limits.WithDefaults()
	s.Limits = l
	cleanup := func() {}
	if s.WorkDir == "" {
		d, err := os.MkdirTemp("", "transmute-sbx-")
		if err != nil {
			return nil, nil, err
		}
		s.WorkDir = d
		cleanup = func() { os.RemoveAll(d) }
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("sandbox: prlimit(1) not found (install util-linux): %w", err)
	}
	args := append(prlimitArgs(l, s.NoAddressSpaceLimit), "--", s.Path)
	args = append(args, s.Args...)
	cmd := exec.Command(prlimit, args...)
	cmd.Dir = s.WorkDir
	cmd.Env = append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + s.WorkDir,
		"TMPDIR=" + s.WorkDir,
		"LANG=C.UTF-8",
	}, s.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, cleanup, nil
}

// Run runs the program to its end with stdin as input.
func Run(ctx context.Context, s Spec, stdin []byte) (Outcome, error) {
	cmd, cleanup, err := s.command(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer cleanup()
	l := s.Limits
	out := &capWriter{limit: l.OutputBytes}
	errw := &capWriter{limit: l.OutputBytes}
	cmd.Stdout, cmd.Stderr = out, errw
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Outcome{}, fmt.Errorf("sandbox: start %s: %w", s.Path, err)
	}
	pgid := cmd.Process.Pid
	timer := time.AfterFunc(l.WallTime, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	stop := context.AfterFunc(ctx, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	werr := cmd.Wait()
	wallTimeout := !timer.Stop()
	stop()
	syscall.Kill(-pgid, syscall.SIGKILL) // orphans left in the group
	o := outcome(cmd.ProcessState, time.Since(start), l)
	o.WallTimeout = wallTimeout
	o.Stdout, o.Stderr = out.buf.Bytes(), errw.buf.Bytes()
	o.StdoutTruncated, o.StderrTruncated = out.truncated, errw.truncated
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return o, fmt.Errorf("sandbox: wait: %w", werr)
	}
	return o, ctx.Err()
}

func outcome(ps *os.ProcessState, wall time.Duration, l Limits) Outcome {
	o := Outcome{WallTime: wall}
	if ps == nil {
		return o
	}
	o.CPUTime = ps.UserTime() + ps.SystemTime()
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		o.MaxRSSKB = ru.Maxrss
	}
	ws := ps.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		o.ExitCode = -1
		o.Signal = ws.Signal().String()
		o.CPUTimeout = ws.Signal() == syscall.SIGXCPU || (ws.Signal() == syscall.SIGKILL && o.CPUTime >= l.CPUTime)
	} else {
		o.ExitCode = ws.ExitStatus()
	}
	return o
}

type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  io.Reader
	stderr  *capWriter
	cleanup func()
	start   time.Time
	limits  Limits
	once    sync.Once
	timer   *time.Timer
}

// Start starts a long-running sandboxed worker with pipes. The wall-time limit
// applies to the worker's whole life.
func Start(ctx context.Context, s Spec) (Process, error) {
	cmd, cleanup, err := s.command(ctx)
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, cleanup: cleanup, limits: s.Limits}
	p.stderr = &capWriter{limit: s.Limits.OutputBytes}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		cleanup()
		return nil, err
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		cleanup()
		return nil, err
	}
	p.start = time.Now()
	if err := cmd.Start(); err != nil {
		cleanup()
		return nil, fmt.Errorf("sandbox: start %s: %w", s.Path, err)
	}
	p.timer = time.AfterFunc(s.Limits.WallTime, p.Kill)
	context.AfterFunc(ctx, p.Kill)
	return p, nil
}

func (p *process) Stdin() io.WriteCloser { return p.stdin }
func (p *process) Stdout() io.Reader     { return p.stdout }
func (p *process) Pid() int              { return p.cmd.Process.Pid }
func (p *process) Kill()                 { syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }

func (p *process) Wait() (Outcome, error) {
	werr := p.cmd.Wait()
	wallTimeout := !p.timer.Stop()
	p.Kill()
	p.once.Do(p.cleanup)
	o := outcome(p.cmd.ProcessState, time.Since(p.start), p.limits)
	o.WallTimeout = wallTimeout
	o.Stderr, o.StderrTruncated = p.stderr.buf.Bytes(), p.stderr.truncated
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return o, werr
	}
	return o, nil
}

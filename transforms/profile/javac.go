package profile

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"transmute/internal/proctree"
)

//go:embed JavacServer.java
var javacServerSrc []byte

// javacIdle is how long the javac server lives without a request.
const javacIdle = 30 * time.Second

// javacServer is one warm JVM running the JDK's compiler for every Java build of
// the process (JavacServer.java). javac started per program costs about 1 s of CPU,
// almost all of it JVM start-up and the compiler's own warm-up; warm, a small
// program compiles in a tenth of that. The class files are those of the command
// line (the same compiler and arguments; TestJavacServerMatchesJavac). Requests are
// served one at a time. The server is started on first use and stopped after
// javacIdle without requests; when it cannot start, builds fall back to the javac
// command.
type javacServer struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	idle   *time.Timer
	exited chan struct{} // closed when the server process has been waited for
	broken bool          // could not start: do not try again
}

var javacSrv javacServer

// compile runs javac with args (absolute paths) in the server. ok is false when
// the server is unavailable and the caller should run the javac command instead.
func (s *javacServer) compile(ctx context.Context, java string, args []string) (out string, err error, ok bool) {
	for _, a := range args {
		if strings.ContainsAny(a, "\x1f\n") {
			return "", nil, false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return "", nil, false
	}
	if s.cmd == nil {
		if err := s.start(java); err != nil {
			s.broken = true
			return "", nil, false
		}
	}
	if s.idle != nil {
		s.idle.Stop()
	}
	defer s.armIdle()

	type answer struct {
		rc   int
		msgs string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		if _, err := io.WriteString(s.stdin, strings.Join(args, "\x1f")+"\n"); err != nil {
			done <- answer{err: err}
			return
		}
		head, err := s.stdout.ReadString('\n')
		if err != nil {
			done <- answer{err: err}
			return
		}
		var rc, n int
		if _, err := fmt.Sscanf(head, "%d %d", &rc, &n); err != nil || n < 0 {
			done <- answer{err: fmt.Errorf("javac server: bad answer %q", head)}
			return
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(s.stdout, buf); err != nil {
			done <- answer{err: err}
			return
		}
		done <- answer{rc: rc, msgs: string(buf)}
	}()
	timer := time.NewTimer(compileTimeout)
	defer timer.Stop()
	select {
	case a := <-done:
		if a.err != nil {
			s.stop()
			return "", nil, false // the server died: this build goes to the command
		}
		if a.rc != 0 {
			return a.msgs, fmt.Errorf("javac exit status %d", a.rc), true
		}
		return a.msgs, nil, true
	case <-timer.C:
		s.stop()
		return "", fmt.Errorf("javac timed out after %s", compileTimeout), true
	case <-ctx.Done():
		s.stop()
		return "", ctx.Err(), true
	}
}

func (s *javacServer) start(java string) error {
	dir, err := os.MkdirTemp("", "transmute-javac-")
	if err != nil {
		return err
	}
	src := filepath.Join(dir, "JavacServer.java")
	if err := os.WriteFile(src, javacServerSrc, 0o644); err != nil {
		os.RemoveAll(dir)
		return err
	}
	// The single-file source launcher compiles the server itself (once per process).
	cmd := exec.Command(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:-UsePerfData", "-Dfile.encoding=UTF-8", src)
	cmd.Dir = dir
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	release, err := proctree.Start(cmd)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); release(); os.RemoveAll(dir); close(exited) }()
	s.cmd, s.stdin, s.stdout, s.exited = cmd, in, bufio.NewReader(outp), exited
	return nil
}

// stop ends the server and waits for it (the caller holds mu).
func (s *javacServer) stop() {
	if s.cmd == nil {
		return
	}
	s.stdin.Close()
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
	}
	s.cmd, s.stdin, s.stdout = nil, nil, nil
}

// StopJavacServer stops the javac server of the Java builds, if it runs, and waits
// for it, so that its CPU time is in the process's RUSAGE_CHILDREN (it is started
// again when needed).
func StopJavacServer() {
	javacSrv.mu.Lock()
	defer javacSrv.mu.Unlock()
	javacSrv.stop()
}

func (s *javacServer) armIdle() {
	if s.cmd == nil {
		return
	}
	if s.idle == nil {
		s.idle = time.AfterFunc(javacIdle, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.stop()
		})
		return
	}
	s.idle.Reset(javacIdle)
}

// javacArgs are the arguments of a profiled Java build (classes of Cand.java and
// ProfHarness.java in dir, into target); the -J options apply to the command only.
func javacArgs(dir, target string) []string {
	return append(append([]string{}, javacFlags...), "-classpath", dir, "-d", target,
		filepath.Join(dir, "Cand.java"), filepath.Join(dir, "ProfHarness.java"))
}

// javacFlags shape the class files: part of the harness version.
var javacFlags = []string{"-nowarn", "-encoding", "UTF-8",
	"-XDstringConcat=inline", // no invokedynamic string concatenation: cheaper JVM start-up
	"-g:none",                // no line tables: the class files depend on the code, not its layout
}

// buildJava compiles in the javac server, or with the javac command when the
// server is unavailable.
func buildJava(ctx context.Context, java, javac, dir, target string) (string, error) {
	args := javacArgs(dir, target)
	if out, err, ok := javacSrv.compile(ctx, java, args); ok {
		return out, err
	}
	return runTool(ctx, dir, javac, append([]string{"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1"}, args...)...)
}

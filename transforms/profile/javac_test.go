package profile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The javac server's class files are byte for byte those of the javac command with
// the same arguments, a compile error comes back as an error with javac's message,
// and one server JVM serves every build.
func TestJavacServerMatchesJavac(t *testing.T) {
	java, javac, _, err := javaTools()
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	cand := javaDefaultImports + "class Cand {\n  static String f(int[] a, String s) {\n    int t = 0;\n" +
		"    for (int x : a) t += x;\n    List<Integer> l = new ArrayList<>();\n    l.add(t);\n" +
		"    return s + \":\" + t + l.stream().map(x -> x * 2).collect(Collectors.toList());\n  }\n}\n"
	os.WriteFile(filepath.Join(dir, "Cand.java"), []byte(cand), 0o644)
	os.WriteFile(filepath.Join(dir, "ProfHarness.java"), javaHarness, 0o644)

	viaServer, viaCommand := filepath.Join(dir, "server"), filepath.Join(dir, "command")
	os.MkdirAll(viaServer, 0o755)
	os.MkdirAll(viaCommand, 0o755)
	out, err, ok := javacSrv.compile(ctx, java, javacArgs(dir, viaServer))
	if !ok || err != nil {
		t.Fatalf("server: ok %v err %v out %s", ok, err, out)
	}
	javacSrv.mu.Lock()
	first := javacSrv.cmd.Process.Pid
	javacSrv.mu.Unlock()
	if out, err := runTool(ctx, dir, javac, append([]string{"-J-XX:+UseSerialGC"}, javacArgs(dir, viaCommand)...)...); err != nil {
		t.Fatalf("command: %v %s", err, out)
	}
	classes, _ := filepath.Glob(filepath.Join(viaCommand, "*.class"))
	if len(classes) < 2 {
		t.Fatalf("command wrote %v", classes)
	}
	for _, c := range classes {
		a, _ := os.ReadFile(c)
		b, err := os.ReadFile(filepath.Join(viaServer, filepath.Base(c)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the javac command and the server (%v)", filepath.Base(c), err)
		}
	}

	os.WriteFile(filepath.Join(dir, "Cand.java"), []byte("class Cand { static int f() { return x; } }\n"), 0o644)
	out, err, ok = javacSrv.compile(ctx, java, javacArgs(dir, viaServer))
	if !ok || err == nil || !strings.Contains(out, "cannot find symbol") {
		t.Errorf("compile error: ok %v err %v out %q", ok, err, out)
	}
	javacSrv.mu.Lock()
	again := javacSrv.cmd.Process.Pid
	javacSrv.mu.Unlock()
	if again != first {
		t.Errorf("a second javac server was started (pid %d, then %d)", first, again)
	}
}

// BenchmarkJavaBuild compiles one profiled program (Cand.java and ProfHarness.java)
// in the warm javac server and with the javac command, in the same run, and prints
// the wall time per build of each and their ratio.
func BenchmarkJavaBuild(b *testing.B) {
	java, javac, _, err := javaTools()
	if err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "Cand.java"), []byte(javaDefaultImports+"class Cand {\n  static int f(int[] a) {\n    int t = 0;\n    for (int x : a) t += x;\n    return t;\n  }\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ProfHarness.java"), javaHarness, 0o644)
	target := filepath.Join(dir, "out")
	os.MkdirAll(target, 0o755)
	for i := 0; i < 5; i++ { // start and warm up the server
		if _, err, ok := javacSrv.compile(ctx, java, javacArgs(dir, target)); !ok || err != nil {
			b.Fatalf("server: %v %v", ok, err)
		}
	}
	const n = 20
	javacSrv.mu.Lock()
	pid := javacSrv.cmd.Process.Pid
	javacSrv.mu.Unlock()
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), procCPU(b, pid)
		for j := 0; j < n; j++ {
			if _, err, _ := javacSrv.compile(ctx, java, javacArgs(dir, target)); err != nil {
				b.Fatal(err)
			}
		}
		server, serverCPU := time.Since(t0)/n, (procCPU(b, pid)-c0)/n
		t0, c0 = time.Now(), childrenCPU()
		for j := 0; j < n; j++ {
			if out, err := runTool(ctx, dir, javac, append([]string{"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1"}, javacArgs(dir, target)...)...); err != nil {
				b.Fatal(err, out)
			}
		}
		command, commandCPU := time.Since(t0)/n, (childrenCPU()-c0)/n
		fmt.Printf("BENCH java_profile_build builds=%d server_cpu_ms=%.1f command_cpu_ms=%.1f speedup_cpu=%.1f server_wall_ms=%.1f command_wall_ms=%.1f\n",
			n, ms(serverCPU), ms(commandCPU), float64(commandCPU)/float64(max(serverCPU, time.Millisecond)), ms(server), ms(command))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// procCPU is the user+sys CPU time of a running process (clock ticks of 10 ms).
func procCPU(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	var ticks int64
	for _, x := range f[11:13] { // utime, stime (fields 14 and 15)
		v, _ := strconv.ParseInt(x, 10, 64)
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

func childrenCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

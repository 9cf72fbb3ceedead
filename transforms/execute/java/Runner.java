package transmute.runner;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.*;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.Label;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;

/**
 * Transmute's Java worker. It serves jobs, one a line of JSON on stdin, until stdin
 * ends: a job holds the parameter and return types, the tests' arguments and the
 * candidates. For each job it compiles every candidate in memory as its own class,
 * loads each in its own class loader, runs the tests and prints the runner protocol
 * (one JSON object a line) on stdout, then a line "#end" ("#end retire" when this JVM
 * is no longer fit to serve another job: a candidate's thread still runs, global state
 * was changed...; it then exits). See transforms/execute/protocol.go.
 *
 * The compiler (and its file manager) stays loaded and warm across jobs; everything a
 * job creates (class loaders, compiled classes, output sink, the thread running the
 * candidates) is created afresh for it.
 */
public final class Runner {
    // Candidates live in the unnamed package, in their own class loaders: they cannot
    // reach these private fields without reflection, which the Guard denies them.
    private static PrintStream proto;
    private static volatile boolean inCandidate;
    private static volatile boolean allowExit;
    private static boolean started;
    private static Thread mainThread;
    private static volatile Thread jobThread;

    // the real stdin (jobs) and stderr (the runner's own failures); candidates see an
    // empty System.in and a counting sink as System.out and System.err
    private static InputStream jobsIn;
    private static PrintStream realErr;

    // what the runner thread is doing, for the CPU watchdog
    private static volatile boolean testing;
    private static volatile int curC, curT;
    private static volatile long cpu0;
    private static volatile long runnerTid;
    private static volatile long cpuLimitNs;
    private static volatile long watchdogBeat;
    // the watchdog stopped the current test (Tick.stop set) at timeUpAt; both under TO
    private static final Object TO = new Object();
    private static boolean timeUp;
    private static long timeUpAt;
    // the last test run by runTest ended by its CPU time limit
    private static boolean lastTimedOut;
    private static volatile Thread watchdog;
    private static ThreadMXBean tmx;
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    // the job's state that says the JVM is unfit for another job (an error that may
    // have left a JDK class half-initialized)
    private static volatile String unfit;

    // the state every job starts from, taken at start-up
    private static Locale locale0, localeDisplay0, localeFormat0;
    private static TimeZone tz0;
    private static SecurityManager guard;

    // the compiler, kept warm across jobs
    private static JavaCompiler compiler;
    private static StandardJavaFileManager stdFM;
    private static MemFM pooledFM;
    private static final com.sun.tools.javac.api.JavacTaskPool TASKS = new com.sun.tools.javac.api.JavacTaskPool(1);

    static final String COMMON_IMPORTS = "import java.util.*;\nimport java.util.stream.*;\n"
            + "import java.util.function.*;\nimport java.lang.*;\nimport java.io.*;\nimport java.math.*;\n"
            + "import javafx.util.Pair;\n";

    public static void main(String[] argv) throws Exception {
        synchronized (Runner.class) {
            // a candidate may name this class: it must not start a second loop
            if (started) throw new IllegalStateException("the runner is already running");
            started = true;
        }
        mainThread = Thread.currentThread();
        proto = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        realErr = System.err;
        jobsIn = System.in;
        System.setIn(new ByteArrayInputStream(new byte[0]));
        locale0 = Locale.getDefault();
        localeDisplay0 = Locale.getDefault(Locale.Category.DISPLAY);
        localeFormat0 = Locale.getDefault(Locale.Category.FORMAT);
        tz0 = TimeZone.getDefault();
        tmx = ManagementFactory.getThreadMXBean();
        // the Guard restricts candidates only (see guarded) and refuses to be replaced:
        // the compiler of later jobs runs under it unhindered
        System.setSecurityManager(new Guard());
        guard = System.getSecurityManager();
        startWatchdog();

        while (true) {
            byte[] line = readLine(jobsIn);
            if (line == null) break;
            if (isBlank(line)) continue;
            String why = runJob(line);
            if (why != null) {
                emit("#end retire " + why.replace('\n', ' '));
                quit(0);
            }
            emit("#end");
        }
        quit(0);
    }

    /** Ends the JVM without running shutdown hooks (a candidate may have added some). */
    static void quit(int status) {
        proto.flush();
        realErr.flush();
        allowExit = true;
        Runtime.getRuntime().halt(status);
    }

    /** Reads one line (without its newline) of raw bytes, or null at the end of input. */
    static byte[] readLine(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(1 << 16);
        while (true) {
            int c = in.read();
            if (c < 0) return b.size() == 0 ? null : b.toByteArray();
            if (c == '\n') return b.toByteArray();
            b.write(c);
        }
    }

    static boolean isBlank(byte[] b) {
        for (byte x : b) if (x != ' ' && x != '\t' && x != '\r') return false;
        return true;
    }

    /**
     * Runs one job on a fresh thread and returns null when the JVM may serve another
     * job, else why not. A failure of the runner itself ends the JVM (exit code 3).
     */
    static String runJob(byte[] line) throws Exception {
        Map<String, Object> job = asMap(new Json(new String(line, StandardCharsets.UTF_8)).top());
        long stack = job.containsKey("stack") ? num(job.get("stack")).longValue() : 256L << 20;
        long outCap = job.containsKey("out_cap") ? num(job.get("out_cap")).longValue() : 1 << 20;
        long retireCpu = job.containsKey("retire_cpu_ns") ? num(job.get("retire_cpu_ns")).longValue() : 0;

        // the state of a fresh JVM, as the first job saw it
        unfit = null;
        testing = false;
        inCandidate = false;
        Sink sink = new Sink(outCap);
        PrintStream ps = new PrintStream(sink, true, "UTF-8");
        System.setOut(ps);
        System.setErr(ps);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        Locale.setDefault(locale0);
        Locale.setDefault(Locale.Category.DISPLAY, localeDisplay0);
        Locale.setDefault(Locale.Category.FORMAT, localeFormat0);
        Set<Thread> threads0 = liveThreads();
        Properties props = System.getProperties();
        Map<Object, Object> props0 = new HashMap<>(props);
        Thread.UncaughtExceptionHandler handler0 = Thread.getDefaultUncaughtExceptionHandler();

        Throwable[] fail = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                run(job, sink);
            } catch (Throwable e) {
                fail[0] = e;
            }
        }, "transmute-runner", stack);
        jobThread = t;
        t.start();
        t.join();
        testing = false;
        inCandidate = false;
        proto.flush();
        if (fail[0] != null) {
            fail[0].printStackTrace(realErr);
            quit(3);
        }

        // is this JVM still as a fresh one would be?
        if (unfit != null) return unfit;
        if (System.getSecurityManager() != guard) return "the security manager was replaced";
        if (System.getProperties() != props || !props0.equals(new HashMap<>(System.getProperties()))) {
            return "a system property was changed";
        }
        TimeZone tz = TimeZone.getDefault();
        if (!tz.getID().equals(tz0.getID()) || !tz.hasSameRules(tz0)) return "the default time zone was changed";
        if (Thread.getDefaultUncaughtExceptionHandler() != handler0) return "the default uncaught exception handler was changed";
        if (!watchdog.isAlive() || System.nanoTime() - watchdogBeat > 5_000_000_000L) return "the CPU watchdog stopped";
        String th = strayThreads(threads0, t);
        if (th != null) return th;
        if (jobsIn.available() > 0) return "unexpected input on stdin";
        if (retireCpu > 0) {
            java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean
                    && ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() > retireCpu) {
                return "the worker used its CPU time";
            }
        }
        for (java.lang.management.MemoryPoolMXBean mp : ManagementFactory.getMemoryPoolMXBeans()) {
            if (mp.getName().equals("Metaspace")) {
                java.lang.management.MemoryUsage u = mp.getUsage();
                if (u.getMax() > 0 && u.getUsed() > u.getMax() / 4 * 3) return "metaspace is nearly full";
            }
        }
        return null;
    }

    static Set<Thread> liveThreads() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) g = g.getParent();
        Thread[] ts = new Thread[g.activeCount() + 16];
        int n;
        while ((n = g.enumerate(ts, true)) == ts.length) ts = new Thread[ts.length * 2];
        Set<Thread> s = new HashSet<>();
        for (int i = 0; i < n; i++) s.add(ts[i]);
        return s;
    }

    /** Describes a thread started during the job (other than its runner) that is still alive, or null. */
    static String strayThreads(Set<Thread> before, Thread runner) throws InterruptedException {
        long deadline = System.nanoTime() + 200_000_000L; // a moment for ending threads to end
        for (Thread th : liveThreads()) {
            if (before.contains(th) || th == runner) continue;
            long left = deadline - System.nanoTime();
            if (left > 0) th.join(Math.max(1, left / 1_000_000));
            if (th.isAlive()) return "a thread started by a candidate is still running (" + th.getName() + ")";
        }
        return null;
    }

    // ---------------------------------------------------------------- the job

    static final class Cand {
        int index;
        String code, imports, entry;
        int headerLines;
        String error; // compile error, or null
        Map<String, byte[]> classes = new HashMap<>();
        List<MInfo> methods = new ArrayList<>();
    }

    /** A method as declared in the source, in order. */
    static final class MInfo {
        String owner, name;
        boolean isStatic;
        int arity;
    }

    static void run(Map<String, Object> job, Sink sink) throws Exception {
        List<Object> ptypes = asList(job.get("params"));
        NType[] nts = new NType[ptypes.size()];
        for (int i = 0; i < nts.length; i++) nts[i] = new NType((String) ptypes.get(i));
        NType ret = new NType((String) job.get("returns"));
        List<Object> tests = asList(job.get("tests"));
        List<Object> cj = asList(job.get("cands"));
        int start = job.containsKey("start") ? (int) num(job.get("start")).longValue() : 0;
        cpuLimitNs = job.containsKey("cpu_ns") ? num(job.get("cpu_ns")).longValue() : 5_000_000_000L;

        boolean ship = Boolean.TRUE.equals(job.get("ship_classes"));
        List<Cand> cands = new ArrayList<>();
        List<Cand> toCompile = new ArrayList<>();
        for (int i = start; i < cj.size(); i++) {
            Map<String, Object> m = asMap(cj.get(i));
            Cand c = new Cand();
            c.index = i;
            c.code = str(m.get("code"));
            c.imports = str(m.get("imports"));
            c.entry = str(m.get("entry"));
            cands.add(c);
            if (m.get("cls") != null) {
                fromShipped(c, asMap(m.get("cls")));
            } else {
                toCompile.add(c);
            }
        }
        if (!toCompile.isEmpty()) compileAll(toCompile);
        if (ship) {
            // before any candidate runs: the supervisor keeps these for a restarted worker
            for (Cand c : toCompile) emit("#cls " + c.index + " " + shipped(c));
        }

        // resolve the entry methods before reporting compile statuses
        Method[] entries = new Method[cands.size()];
        Object[] receivers = new Object[cands.size()];
        for (int k = 0; k < cands.size(); k++) {
            Cand c = cands.get(k);
            if (c.error == null) {
                try {
                    Object[] r = resolve(c, nts.length, sink);
                    entries[k] = (Method) r[0];
                    receivers[k] = r[1];
                } catch (Throwable e) {
                    inCandidate = false;
                    noteUnfit(e);
                    c.error = e instanceof NoEntry ? e.getMessage() : describe(e);
                }
            }
            if (c.error == null) {
                emit("{\"c\":" + c.index + ",\"compile\":\"ok\"}");
            } else {
                emit("{\"c\":" + c.index + ",\"compile\":\"error\",\"msg\":" + quote(c.error) + "}");
            }
        }

        // from here on candidates run (the Guard, installed at start-up, restricts them
        // while inCandidate; the watchdog watches this thread's CPU time)
        Locale.setDefault(Locale.ROOT);
        runnerTid = Thread.currentThread().getId();

        for (int k = 0; k < cands.size(); k++) {
            Cand c = cands.get(k);
            if (c.error != null) {
                emit("{\"c\":" + c.index + ",\"done\":true}");
                continue;
            }
            Method m = entries[k];
            Class<?>[] pcs = m.getParameterTypes();
            java.lang.reflect.Type[] gts = m.getGenericParameterTypes();
            for (int t = 0; t < tests.size(); t++) {
                String line;
                try {
                    line = runTest(c.index, t, m, receivers[k], pcs, gts, nts, ret, asList(tests.get(t)), sink, tmx);
                } catch (OutOfMemoryError e) {
                    testing = false;
                    inCandidate = false;
                    noteUnfit(e);
                    line = "{\"c\":" + c.index + ",\"t\":" + t + ",\"s\":\"memory_limit\",\"e\":\"OutOfMemoryError\"}";
                }
                emit(line);
                if (lastTimedOut) {
                    // as after a JVM restart: the supervisor marks the other tests timeouts
                    lastTimedOut = false;
                    break;
                }
            }
            emit("{\"c\":" + c.index + ",\"done\":true}");
            entries[k] = null;
            receivers[k] = null;
            c.classes = null;
        }
    }

    /**
     * Runs one test. Candidate code may run anywhere in it (a constructor of a collection
     * parameter, the call, toString or an iterator of the result), so the Guard
     * restricts the whole of it.
     */
    static String runTest(int ci, int t, Method m, Object recv, Class<?>[] pcs, java.lang.reflect.Type[] gts,
                          NType[] nts, NType ret, List<Object> args, Sink sink, ThreadMXBean tmx) {
        sink.reset();
        inCandidate = true;
        try {
            return runTest0(ci, t, m, recv, pcs, gts, nts, ret, args, sink, tmx);
        } finally {
            inCandidate = false;
            testing = false;
        }
    }

    static String runTest0(int ci, int t, Method m, Object recv, Class<?>[] pcs, java.lang.reflect.Type[] gts,
                           NType[] nts, NType ret, List<Object> args, Sink sink, ThreadMXBean tmx) {
        String head = "{\"c\":" + ci + ",\"t\":" + t + ",";
        Object[] av;
        try {
            if (args.size() != pcs.length) {
                throw new ArgError("the test has " + args.size() + " arguments, " + m.getName() + " takes " + pcs.length);
            }
            av = new Object[pcs.length];
            for (int i = 0; i < pcs.length; i++) {
                av[i] = conv(args.get(i), pcs[i], gts[i], i < nts.length ? nts[i] : null);
            }
        } catch (ArgError e) {
            return head + "\"s\":\"exception\",\"e\":" + quote("ArgumentError: " + e.getMessage()) + "}";
        }
        Object result = null;
        Throwable thrown = null;
        curC = ci;
        curT = t;
        long w0 = System.nanoTime();
        cpu0 = tmx.getCurrentThreadCpuTime();
        testing = true;
        inCandidate = true;
        try {
            result = m.invoke(recv, av);
        } catch (InvocationTargetException e) {
            thrown = e.getCause() == null ? e : e.getCause();
        } catch (Throwable e) {
            thrown = e;
        }
        long cpu = tmx.getCurrentThreadCpuTime() - cpu0;
        long wall = System.nanoTime() - w0;
        boolean up;
        synchronized (TO) {
            testing = false;
            up = timeUp;
            timeUp = false;
            Tick.stop = false;
        }
        Thread.interrupted(); // a candidate may leave the thread interrupted
        if (!Locale.getDefault().equals(Locale.ROOT) || !Locale.getDefault(Locale.Category.FORMAT).equals(Locale.ROOT)
                || !Locale.getDefault(Locale.Category.DISPLAY).equals(Locale.ROOT)) {
            Locale.setDefault(Locale.ROOT);
        }
        String res = ",\"cpu_ns\":" + Math.max(cpu, 1) + ",\"wall_ns\":" + Math.max(wall, 1) + "}";
        if (up) {
            // stopped by the watchdog (TimeUp, or the candidate returned or raised after it)
            lastTimedOut = true;
            return head + "\"s\":\"timeout\",\"e\":\"CPU time limit exceeded\"" + res;
        }
        if (thrown != null) {
            noteUnfit(thrown);
            if (thrown instanceof ExceptionInInitializerError && thrown.getCause() != null) {
                thrown = thrown.getCause();
            }
            if (thrown instanceof OutOfMemoryError) {
                return head + "\"s\":\"memory_limit\",\"e\":" + quote(describe(thrown)) + res;
            }
            if (thrown instanceof OutputLimit) {
                return head + "\"s\":\"output_limit\",\"e\":\"output limit exceeded\"" + res;
            }
            return head + "\"s\":\"exception\",\"e\":" + quote(describe(thrown)) + res;
        }
        StringBuilder sb = new StringBuilder();
        try {
            if (ret.base.equals("void")) {
                sb.append('[');
                boolean first = true;
                for (int i = 0; i < av.length; i++) {
                    boolean arr = i < nts.length ? nts[i].dims > 0 : (pcs[i].isArray() || av[i] instanceof Collection);
                    if (!arr) continue;
                    if (!first) sb.append(',');
                    first = false;
                    write(sb, av[i], 0);
                }
                sb.append(']');
            } else {
                write(sb, result, 0);
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            return head + "\"s\":\"exception\",\"e\":" + quote("printing the result: " + describe(e)) + res;
        }
        return head + "\"s\":\"ok\",\"v\":" + sb + res;
    }

    /**
     * Notes an error that may have left JDK state broken for later jobs: a stack
     * overflow or an out-of-memory error can strike inside a JDK class's static
     * initializer (the class then fails for the rest of the JVM's life).
     */
    static void noteUnfit(Throwable e) {
        for (Throwable x = e; x != null && unfit == null; x = x.getCause()) {
            if (x instanceof VirtualMachineError) {
                unfit = "a candidate raised " + x.getClass().getSimpleName();
            }
            if (x.getCause() == x) break;
        }
    }

    static void emit(String line) {
        synchronized (proto) {
            proto.print(line);
            proto.print('\n');
            proto.flush();
        }
    }

    /**
     * Starts the CPU watchdog, once for the JVM's life: it follows the runner thread of
     * the current job through the volatile fields. It beats (watchdogBeat) so that a job
     * can tell it still runs.
     */
    static void startWatchdog() {
        Thread w = new Thread(() -> {
            while (true) {
                watchdogBeat = System.nanoTime();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    continue; // only a candidate would interrupt it
                }
                if (!testing) continue;
                int c = curC, t = curT;
                long used = tmx.getThreadCpuTime(runnerTid) - cpu0;
                synchronized (TO) {
                    if (!testing || c != curC || t != curT) continue;
                    if (!timeUp) {
                        if (used > cpuLimitNs) {
                            // the test used up its CPU time: stop it at its next check (Tick)
                            timeUp = true;
                            timeUpAt = System.nanoTime();
                            Tick.stop = true;
                        }
                        continue;
                    }
                    long grace = Math.min(Math.max(cpuLimitNs / 2, 20_000_000L), 1_000_000_000L);
                    if (System.nanoTime() - timeUpAt > grace) {
                        // it did not come back: report it and end the JVM (never Thread.stop)
                        emit("{\"c\":" + c + ",\"t\":" + t + ",\"s\":\"timeout\",\"e\":\"CPU time limit exceeded\",\"cpu_ns\":"
                                + used + "}");
                        allowExit = true;
                        Runtime.getRuntime().halt(4);
                    }
                }
            }
        }, "transmute-watchdog");
        w.setDaemon(true);
        watchdogBeat = System.nanoTime();
        w.start();
        watchdog = w;
    }

    static String describe(Throwable e) {
        String n = e.getClass().getSimpleName();
        if (n.isEmpty()) n = e.getClass().getName();
        String msg = e.getMessage();
        return msg == null ? n : n + ": " + msg;
    }

    static String str(Object o) {
        return o == null ? "" : o.toString();
    }

    // ---------------------------------------------------------------- compilation

    static final class Src extends SimpleJavaFileObject {
        final String text;
        final Cand cand;

        Src(Cand c, String text) {
            super(URI.create("string:///C" + c.index + ".java"), Kind.SOURCE);
            this.text = text;
            this.cand = c;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    static final class Out extends SimpleJavaFileObject {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Out(String name) {
            super(URI.create("mem:///" + name.replace('.', '/') + ".class"), Kind.CLASS);
        }

        @Override
        public OutputStream openOutputStream() {
            return bytes;
        }
    }

    static final class MemFM extends ForwardingJavaFileManager<StandardJavaFileManager> {
        final Map<String, Out> out = new LinkedHashMap<>();

        MemFM(StandardJavaFileManager fm) {
            super(fm);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location loc, String name, JavaFileObject.Kind kind, FileObject sib) {
            Out o = new Out(name);
            out.put(name, o);
            return o;
        }
    }

    static int countLines(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '\n') n++;
        return n;
    }

    /**
     * Compiles the candidates in memory, as few tasks as possible: one for all, then,
     * when some fail, one for the rest, and so on. The tasks come from a JavacTaskPool
     * (as JShell's do): a task reuses the compiler context (symbol table, JDK classes
     * already read) of the previous one, cleaned of the classes it compiled, which makes
     * a warm compile several times cheaper. The one-by-one fallback uses fresh contexts.
     */
    static void compileAll(List<Cand> cands) throws Exception {
        if (compiler == null) {
            compiler = ToolProvider.getSystemJavaCompiler();
            if (compiler == null) throw new IllegalStateException("no Java compiler in this runtime (a JRE, not a JDK?)");
            // the standard file manager (its view of the JDK's modules and the class
            // path, neither of which changes) serves every job; outputs stay per task
            stdFM = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
            pooledFM = new MemFM(stdFM);
        }
        JavaCompiler jc = compiler;
        StandardJavaFileManager sfm = stdFM;
        List<String> opts = Arrays.asList("-classpath", System.getProperty("java.class.path"), "-proc:none",
                "-nowarn", "-Xlint:none", "-g:source,lines", "-encoding", "UTF-8", "-Xmaxerrs", "10000");
        List<Cand> pending = new ArrayList<>();
        Map<Cand, Src> srcs = new HashMap<>();
        for (Cand c : cands) {
            String imports = c.imports == null ? "" : c.imports.trim();
            String header = COMMON_IMPORTS + (imports.isEmpty() ? "" : imports + "\n") + "public class C" + c.index + " {\n";
            c.headerLines = countLines(header);
            srcs.put(c, new Src(c, header + c.code + "\n}\n"));
            pending.add(c);
        }
        int rounds = 0;
        while (!pending.isEmpty()) {
            rounds++;
            // the pooled context's components keep the file manager they were made with:
            // every pooled task gets the same one, emptied of the previous task's classes
            MemFM fm = pooledFM;
            fm.out.clear();
            DiagnosticCollector<JavaFileObject> dc = new DiagnosticCollector<>();
            List<Src> units = new ArrayList<>();
            for (Cand c : pending) units.add(srcs.get(c));
            // javac wraps our file objects: key the parsed trees by their URI
            // (javac strips the trees after generating code: read them right after parsing)
            Map<URI, List<MInfo>> trees = new HashMap<>();
            TaskListener parsed = new TaskListener() {
                @Override
                public void finished(TaskEvent e) {
                    if (e.getKind() == TaskEvent.Kind.PARSE && e.getSourceFile() != null) {
                        trees.put(e.getSourceFile().toUri(), methods(e.getCompilationUnit()));
                    }
                }
            };
            boolean ok;
            try {
                ok = TASKS.getTask(null, fm, dc, opts, null, units, task -> {
                    task.addTaskListener(parsed);
                    return task.call();
                });
            } catch (RuntimeException | StackOverflowError e) {
                // a compiler crash: compile the candidates one by one (the pool drops
                // the crashed task's context)
                noteUnfit(e);
                ok = false;
                if (pending.size() == 1) {
                    pending.get(0).error = "compiler crashed: " + describe(e.getCause() != null ? e.getCause() : e);
                    pending.clear();
                    break;
                }
                compileAllSingle(pending, srcs, jc, sfm, opts);
                pending.clear();
                break;
            }
            Map<Cand, StringBuilder> errs = new LinkedHashMap<>();
            StringBuilder unattributed = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : dc.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) continue;
                if (d.getSource() instanceof Src) {
                    Cand c = ((Src) d.getSource()).cand;
                    StringBuilder sb = errs.computeIfAbsent(c, x -> new StringBuilder());
                    if (sb.length() < 4000) {
                        if (sb.length() > 0) sb.append('\n');
                        long line = d.getLineNumber() - c.headerLines;
                        sb.append("line ").append(line).append(": ").append(d.getMessage(Locale.ROOT));
                    }
                } else {
                    unattributed.append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            if (ok && errs.isEmpty()) {
                for (Cand c : pending) {
                    collect(c, fm, trees.get(srcs.get(c).toUri()));
                }
                pending.clear();
                break;
            }
            if (errs.isEmpty()) {
                String msg = unattributed.length() > 0 ? unattributed.toString().trim() : "compilation failed";
                if (pending.size() == 1) {
                    pending.get(0).error = msg;
                    pending.clear();
                } else {
                    compileAllSingle(pending, srcs, jc, sfm, opts);
                    pending.clear();
                }
                break;
            }
            for (Map.Entry<Cand, StringBuilder> e : errs.entrySet()) {
                e.getKey().error = e.getValue().toString();
                pending.remove(e.getKey());
            }
            if (rounds > 50) {
                compileAllSingle(pending, srcs, jc, sfm, opts);
                pending.clear();
            }
        }
    }

    /** Compiles each candidate alone (the fallback when errors cannot be attributed). */
    static void compileAllSingle(List<Cand> cands, Map<Cand, Src> srcs, JavaCompiler jc, StandardJavaFileManager sfm,
                                 List<String> opts) {
        for (Cand c : cands) {
            MemFM fm = new MemFM(sfm);
            DiagnosticCollector<JavaFileObject> dc = new DiagnosticCollector<>();
            JavacTask task = (JavacTask) jc.getTask(null, fm, dc, opts, null, List.of(srcs.get(c)));
            List<List<MInfo>> tree = new ArrayList<>();
            task.addTaskListener(new TaskListener() {
                @Override
                public void finished(TaskEvent e) {
                    if (e.getKind() == TaskEvent.Kind.PARSE) tree.add(methods(e.getCompilationUnit()));
                }
            });
            boolean ok;
            try {
                ok = task.call();
            } catch (RuntimeException | StackOverflowError e) {
                noteUnfit(e);
                c.error = "compiler crashed: " + describe(e.getCause() != null ? e.getCause() : e);
                continue;
            }
            if (ok) {
                collect(c, fm, tree.isEmpty() ? null : tree.get(0));
                continue;
            }
            StringBuilder sb = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : dc.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR || sb.length() > 4000) continue;
                if (sb.length() > 0) sb.append('\n');
                if (d.getSource() != null) sb.append("line ").append(d.getLineNumber() - c.headerLines).append(": ");
                sb.append(d.getMessage(Locale.ROOT));
            }
            c.error = sb.length() > 0 ? sb.toString() : "compilation failed";
        }
    }

    /**
     * A compiled candidate as JSON: its compile error ("e"), or its methods in source
     * order ("m": [owner, name, static, arity]) and its class files in base64 ("k").
     * A worker restarted in the middle of a batch (after a timeout or a crash) gets
     * these instead of compiling the rest of the batch again in a cold JVM.
     */
    static String shipped(Cand c) {
        StringBuilder sb = new StringBuilder("{");
        if (c.error != null) {
            sb.append("\"e\":");
            quote(sb, c.error);
            return sb.append('}').toString();
        }
        sb.append("\"m\":[");
        for (int i = 0; i < c.methods.size(); i++) {
            MInfo m = c.methods.get(i);
            if (i > 0) sb.append(',');
            sb.append('[');
            quote(sb, m.owner);
            sb.append(',');
            quote(sb, m.name);
            sb.append(',').append(m.isStatic).append(',').append(m.arity).append(']');
        }
        sb.append("],\"k\":{");
        boolean first = true;
        for (Map.Entry<String, byte[]> e : new TreeMap<>(c.classes).entrySet()) {
            if (!first) sb.append(',');
            first = false;
            quote(sb, e.getKey());
            sb.append(':');
            quote(sb, Base64.getEncoder().encodeToString(e.getValue()));
        }
        return sb.append("}}").toString();
    }

    /** Takes a candidate compiled by an earlier worker (see shipped). */
    static void fromShipped(Cand c, Map<String, Object> m) {
        if (m.get("e") != null) {
            c.error = str(m.get("e"));
            return;
        }
        for (Object o : asList(m.get("m"))) {
            List<Object> l = asList(o);
            MInfo mi = new MInfo();
            mi.owner = str(l.get(0));
            mi.name = str(l.get(1));
            mi.isStatic = Boolean.TRUE.equals(l.get(2));
            mi.arity = (int) num(l.get(3)).longValue();
            c.methods.add(mi);
        }
        for (Map.Entry<String, Object> e : asMap(m.get("k")).entrySet()) {
            c.classes.put(e.getKey(), Base64.getDecoder().decode(str(e.getValue())));
        }
    }

    /** Takes a compiled candidate's classes and its methods in source order. */
    static void collect(Cand c, MemFM fm, List<MInfo> methods) {
        String top = "C" + c.index;
        for (Map.Entry<String, Out> e : fm.out.entrySet()) {
            String n = e.getKey();
            if (n.equals(top) || n.startsWith(top + "$")) c.classes.put(n, e.getValue().bytes.toByteArray());
        }
        if (methods != null) c.methods = methods;
    }

    /**
     * The methods of a candidate's class C<i> in source order; when it declares none, those
     * of its nested classes.
     */
    static List<MInfo> methods(CompilationUnitTree tree) {
        List<MInfo> top = new ArrayList<>(), nested = new ArrayList<>();
        for (Tree t : tree.getTypeDecls()) {
            if (!(t instanceof ClassTree)) continue;
            ClassTree ct = (ClassTree) t;
            String name = ct.getSimpleName().toString();
            if (!name.matches("C[0-9]+")) continue;
            for (Tree m : ct.getMembers()) {
                if (m instanceof MethodTree) {
                    add(top, name, (MethodTree) m);
                } else if (m instanceof ClassTree) {
                    ClassTree inner = (ClassTree) m;
                    for (Tree mm : inner.getMembers()) {
                        if (mm instanceof MethodTree) add(nested, name + "$" + inner.getSimpleName(), (MethodTree) mm);
                    }
                }
            }
        }
        return top.isEmpty() ? nested : top;
    }

    static void add(List<MInfo> l, String owner, MethodTree mt) {
        String name = mt.getName().toString();
        if (name.equals("<init>")) return;
        MInfo mi = new MInfo();
        mi.owner = owner;
        mi.name = name;
        mi.isStatic = mt.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.STATIC);
        mi.arity = mt.getParameters().size();
        l.add(mi);
    }

    static final class NoEntry extends Exception {
        NoEntry(String m) {
            super(m);
        }
    }

    static final class CandLoader extends ClassLoader {
        final Map<String, byte[]> bytes;

        CandLoader(Map<String, byte[]> bytes) {
            super(Runner.class.getClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = bytes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            b = Tick.instrument(b);
            return defineClass(name, b, 0, b.length);
        }
    }

    /** Finds the entry method: by name, else the last static one with the right arity. */
    static Object[] resolve(Cand c, int arity, Sink sink) throws Exception {
        MInfo pick = null;
        if (!c.entry.isEmpty()) {
            for (MInfo m : c.methods) {
                if (m.name.equals(c.entry) && (pick == null || m.arity == arity || pick.arity != arity)) pick = m;
            }
            if (pick == null) throw new NoEntry("no method named " + c.entry);
        } else {
            int best = -1;
            for (MInfo m : c.methods) {
                if (m.name.equals("main") && m.arity == 1 && c.methods.size() > 1) continue;
                int score = (m.arity == arity ? 2 : 0) + (m.isStatic ? 1 : 0);
                if (score >= best) {
                    best = score;
                    pick = m;
                }
            }
            if (pick == null) throw new NoEntry("no method to call");
        }
        ClassLoader cl = new CandLoader(c.classes);
        Class<?> owner = cl.loadClass(pick.owner);
        Method found = null;
        for (Method m : owner.getDeclaredMethods()) {
            if (m.getName().equals(pick.name) && m.getParameterCount() == pick.arity && !m.isSynthetic()) {
                if (found == null || m.isBridge() == false && found.isBridge()) found = m;
            }
        }
        if (found == null) throw new NoEntry("method " + pick.name + " not found in the compiled class");
        found.setAccessible(true);
        Object recv = null;
        if (!Modifier.isStatic(found.getModifiers())) {
            if (owner.getEnclosingClass() != null && !Modifier.isStatic(owner.getModifiers())) {
                Object outer = construct(cl.loadClass("C" + c.index).getDeclaredConstructor(), sink);
                Constructor<?> k = owner.getDeclaredConstructor(owner.getEnclosingClass());
                k.setAccessible(true);
                recv = construct(k, sink, outer);
            } else {
                Constructor<?> k = owner.getDeclaredConstructor();
                k.setAccessible(true);
                recv = construct(k, sink);
            }
        }
        return new Object[]{found, recv};
    }

    /** Runs a candidate's constructor (and its class's static initializer) under the Guard. */
    static Object construct(Constructor<?> k, Sink sink, Object... args) throws Exception {
        sink.reset();
        inCandidate = true;
        try {
            return k.newInstance(args);
        } finally {
            inCandidate = false;
        }
    }

    // ---------------------------------------------------------------- guards

    /**
     * How a test that used up its CPU time is stopped without Thread.stop and without
     * ending the JVM. Every candidate class is rewritten as it is loaded (instrument) to
     * call Tick.check() at the entry of each method and before each backward jump (every
     * loop's back edge), so that the runner thread never runs candidate code for long
     * without passing a check. When the watchdog sees the test past its limit it sets
     * stop; the next check throws TimeUp, which unwinds the candidate (finally blocks,
     * monitors) back to runTest. A candidate that catches it reaches another check at
     * the next back edge or call, where it is thrown again, so only code without loops
     * or calls (or blocked in the JDK) can hold out: the watchdog then ends the JVM
     * after a grace period, as it did for every timeout before (the supervisor restarts
     * a worker from the next candidate). Before, each looping mutant cost a JVM start
     * (about 60 a 20-problem MBTA run).
     *
     * The rewriting uses the ASM that the JDK carries for itself
     * (jdk.internal.org.objectweb.asm, exported to the runner with --add-exports): a
     * well-kept bytecode library that is already on every JDK 17, where a hand-written
     * class-file rewriter would have to redo the stack map frames and offsets that ASM
     * maintains. A class that ASM cannot rewrite is loaded as it is (its timeouts then
     * end the JVM, as before).
     */
    public static final class Tick {
        static volatile boolean stop;

        private Tick() {}

        /** Throws TimeUp when the watchdog stopped the current test. */
        public static void check() {
            if (stop) throw new TimeUp();
        }

        static final String OWNER = "transmute/runner/Runner$Tick";

        static byte[] instrument(byte[] b) {
            try {
                ClassReader cr = new ClassReader(b);
                ClassWriter cw = new ClassWriter(cr, 0);
                cr.accept(new ClassVisitor(Opcodes.ASM8, cw) {
                    @Override
                    public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                        return new Ticker(super.visitMethod(access, name, desc, sig, exc));
                    }
                }, 0);
                return cw.toByteArray();
            } catch (RuntimeException | LinkageError e) {
                return b;
            }
        }
    }

    /** Inserts Tick.check() at a method's entry and before its backward jumps. */
    static final class Ticker extends MethodVisitor {
        // the labels already placed: a jump to one of them goes backward
        private final Set<Label> placed = new HashSet<>();

        Ticker(MethodVisitor mv) {
            super(Opcodes.ASM8, mv);
        }

        private void tick() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Tick.OWNER, "check", "()V", false);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            tick();
        }

        @Override
        public void visitLabel(Label l) {
            super.visitLabel(l);
            placed.add(l);
        }

        @Override
        public void visitJumpInsn(int op, Label l) {
            if (placed.contains(l)) tick();
            super.visitJumpInsn(op, l);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... ls) {
            if (placed.contains(dflt) || anyPlaced(ls)) tick();
            super.visitTableSwitchInsn(min, max, dflt, ls);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] ls) {
            if (placed.contains(dflt) || anyPlaced(ls)) tick();
            super.visitLookupSwitchInsn(dflt, keys, ls);
        }

        private boolean anyPlaced(Label[] ls) {
            for (Label l : ls) if (placed.contains(l)) return true;
            return false;
        }
    }

    /** Thrown in a candidate by Tick.check() once its test is past its CPU time. */
    static final class TimeUp extends Error {
        TimeUp() {
            super("CPU time limit exceeded", null, false, false);
        }
    }

    static final class OutputLimit extends Error {
        OutputLimit() {
            super("output limit exceeded", null, false, false);
        }
    }

    /** Where candidates' System.out and System.err go: counted, then discarded. */
    static final class Sink extends OutputStream {
        final long cap;
        long n;

        Sink(long cap) {
            this.cap = cap;
        }

        void reset() {
            n = 0;
        }

        @Override
        public void write(int b) {
            if (++n > cap && inCandidate) throw new OutputLimit();
        }

        @Override
        public void write(byte[] b, int off, int len) {
            n += len;
            if (n > cap && inCandidate) throw new OutputLimit();
        }
    }

    /**
     * Whether the Guard restricts the current thread: while a candidate runs, and in any
     * thread but the runner's own (main, the job's runner thread, the watchdog), since
     * any other runs candidate code (a thread a candidate started, the finalizer).
     */
    static boolean guarded() {
        if (inCandidate) return true;
        Thread t = Thread.currentThread();
        return t != mainThread && t != jobThread && t != watchdog;
    }

    /**
     * Blocks System.exit, Runtime.halt, process creation and raw descriptors in candidates,
     * and the replacement of the security manager by anyone.
     */
    static final class Guard extends SecurityManager {
        @Override
        public void checkPermission(Permission p) {
            if (p instanceof RuntimePermission && p.getName().equals("setSecurityManager")) {
                throw new SecurityException("setSecurityManager is not allowed");
            }
            if (!guarded()) return;
            if (p instanceof RuntimePermission) {
                String n = p.getName();
                // (native code, loadLibrary, would hold the whole process: fd 1, the
                // runner's objects)
                if (n.equals("setIO") || n.startsWith("exitVM") || n.startsWith("loadLibrary.")) {
                    throw new SecurityException(n + " is not allowed");
                }
            } else if (p instanceof java.nio.file.LinkPermission) {
                // a link to /proc/self/fd/1 would pass the path checks of checkWrite
                throw new SecurityException("creating links is not allowed");
            } else if (p instanceof java.lang.reflect.ReflectPermission && p.getName().equals("suppressAccessChecks")
                    && calledByCandidate()) {
                throw new SecurityException("setAccessible is not allowed");
            }
        }

        private static final ThreadLocal<boolean[]> CHECKING = ThreadLocal.withInitial(() -> new boolean[1]);

        /** Whether the code asking (below the reflection frames) is a candidate's. */
        private static boolean calledByCandidate() {
            boolean[] busy = CHECKING.get();
            if (busy[0]) return false; // the stack walk itself asking
            busy[0] = true;
            try {
                return WALKER.walk(new java.util.function.Function<java.util.stream.Stream<StackWalker.StackFrame>, Boolean>() {
                    @Override
                    public Boolean apply(java.util.stream.Stream<StackWalker.StackFrame> frames) {
                        Iterator<StackWalker.StackFrame> it = frames.iterator();
                        while (it.hasNext()) {
                            Class<?> c = it.next().getDeclaringClass();
                            String n = c.getName();
                            // (MethodHandles: privateLookupIn, which would open the
                            // runner's private fields to a candidate)
                            if (c == Guard.class || c == SecurityManager.class || n.startsWith("java.lang.reflect.")
                                    || n.startsWith("jdk.internal.reflect.") || c == java.lang.invoke.MethodHandles.class) {
                                continue;
                            }
                            return c.getClassLoader() instanceof CandLoader;
                        }
                        return false;
                    }
                });
            } finally {
                busy[0] = false;
            }
        }

        @Override
        public void checkWrite(String file) {
            if (guarded() && reachesSpecial(file)) {
                throw new SecurityException("writing to " + file + " is not allowed");
            }
        }

        /**
         * Whether writing file could reach a descriptor of this process (the protocol
         * stream is fd 1: /proc/self/fd/1, /dev/stdout) or a device: a path under /dev,
         * /proc or /sys however written ("/./proc", "..", a symbolic link that already
         * exists: candidates cannot make links), or a file that is not a regular file.
         */
        static boolean reachesSpecial(String file) {
            java.nio.file.Path p;
            try {
                p = java.nio.file.Path.of(file).toAbsolutePath().normalize();
            } catch (RuntimeException e) {
                return true;
            }
            if (special(p)) return true;
            try {
                if (special(p.toRealPath())) return true;
            } catch (java.io.IOException | RuntimeException e) {
                // no such file (a new one: its directory decides), or a dangling link
                if (java.nio.file.Files.isSymbolicLink(p)) return true;
                java.nio.file.Path dir = p.getParent();
                try {
                    if (dir != null && special(dir.toRealPath())) return true;
                } catch (java.io.IOException | RuntimeException e2) {
                    // no such directory: the write fails anyway
                }
            }
            return java.nio.file.Files.exists(p) && !java.nio.file.Files.isRegularFile(p);
        }

        private static boolean special(java.nio.file.Path p) {
            return p.startsWith("/proc") || p.startsWith("/dev") || p.startsWith("/sys");
        }

        @Override
        public void checkRead(String file) {
            // the worker's stdin carries the next jobs: reading it would block
            if (guarded() && (file.equals("/dev/stdin") || file.equals("/dev/fd/0") || file.equals("/proc/self/fd/0")
                    || file.equals("/proc/thread-self/fd/0"))) {
                throw new SecurityException("reading " + file + " is not allowed");
            }
        }

        @Override
        public void checkPermission(Permission p, Object ctx) {
            checkPermission(p);
        }

        @Override
        public void checkExit(int status) {
            if (!allowExit) throw new SecurityException("System.exit(" + status + ") is not allowed");
        }

        @Override
        public void checkAccess(Thread t) {
            // stop, suspend, interrupt, setPriority...
            // (the job thread runs the candidates: their own calls on it are theirs, but
            // a thread a candidate left may not stop or interrupt it under a later one)
            if (guarded() && (t == watchdog || t == mainThread || t == jobThread && Thread.currentThread() != t)) {
                throw new SecurityException("modifying the runner's threads is not allowed");
            }
            super.checkAccess(t);
        }

        @Override
        public void checkExec(String cmd) {
            if (guarded()) throw new SecurityException("running programs is not allowed");
        }

        @Override
        public void checkWrite(java.io.FileDescriptor fd) {
            if (guarded()) throw new SecurityException("writing to file descriptors is not allowed");
        }

        @Override
        public void checkRead(java.io.FileDescriptor fd) {
            if (guarded()) throw new SecurityException("reading file descriptors is not allowed");
        }
    }

    // ---------------------------------------------------------------- argument conversion

    /** A language-neutral type: a base kind with array dimensions. */
    static final class NType {
        final String base;
        final int dims;

        NType(String s) {
            s = s == null ? "" : s.trim();
            int d = 0;
            while (s.endsWith("[]")) {
                d++;
                s = s.substring(0, s.length() - 2).trim();
            }
            s = s.toLowerCase(Locale.ROOT);
            if (s.equals("boolean")) s = "bool";
            if (s.equals("str")) s = "string";
            base = s;
            dims = d;
        }

        NType(String base, int dims) {
            this.base = base;
            this.dims = dims;
        }

        NType elem() {
            return new NType(base, Math.max(0, dims - 1));
        }
    }

    static final class ArgError extends Exception {
        ArgError(String m) {
            super(m, null, false, false);
        }
    }

    static final class JNum {
        final String text;

        JNum(String t) {
            text = t;
        }

        boolean integral() {
            return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        }

        long longValue() {
            if (integral()) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    return new BigInteger(text).longValue();
                }
            }
            return (long) doubleValue();
        }

        double doubleValue() {
            return Double.parseDouble(text);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    static JNum num(Object o) {
        return (JNum) o;
    }

    static long toLong(Object v) throws ArgError {
        if (v instanceof JNum) return ((JNum) v).longValue();
        if (v instanceof Boolean) return (Boolean) v ? 1 : 0;
        if (v instanceof String && ((String) v).length() == 1) return ((String) v).charAt(0);
        if (v instanceof String) {
            try {
                return Long.parseLong(((String) v).trim());
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw new ArgError("not an integer: " + jsonOf(v));
    }

    static double toDouble(Object v) throws ArgError {
        if (v instanceof JNum) return ((JNum) v).doubleValue();
        if (v instanceof Boolean) return (Boolean) v ? 1 : 0;
        if (v instanceof String) {
            switch ((String) v) {
                case "NaN": case "nan": return Double.NaN;
                case "Infinity": case "inf": case "Inf": return Double.POSITIVE_INFINITY;
                case "-Infinity": case "-inf": case "-Inf": return Double.NEGATIVE_INFINITY;
                default:
                    if (((String) v).length() == 1) return ((String) v).charAt(0);
            }
        }
        throw new ArgError("not a number: " + jsonOf(v));
    }

    static boolean toBool(Object v) throws ArgError {
        if (v instanceof Boolean) return (Boolean) v;
        if (v instanceof JNum) return ((JNum) v).doubleValue() != 0;
        if ("true".equals(v)) return true;
        if ("false".equals(v)) return false;
        throw new ArgError("not a boolean: " + jsonOf(v));
    }

    static char toChar(Object v) throws ArgError {
        if (v instanceof String && ((String) v).length() == 1) return ((String) v).charAt(0);
        if (v instanceof JNum) return (char) ((JNum) v).longValue();
        throw new ArgError("not a char: " + jsonOf(v));
    }

    static String toStr(Object v) throws ArgError {
        if (v == null || v instanceof String) return (String) v;
        if (v instanceof JNum || v instanceof Boolean) return v.toString();
        if (v instanceof List) {
            StringBuilder sb = new StringBuilder();
            for (Object o : (List<?>) v) sb.append(toChar(o));
            return sb.toString();
        }
        throw new ArgError("not a string: " + jsonOf(v));
    }

    /** Converts a JSON value to an argument of Java type c (generic type g), nt the declared type. */
    static Object conv(Object v, Class<?> c, java.lang.reflect.Type g, NType nt) throws ArgError {
        if (c == int.class || c == Integer.class) return (int) toLong(v);
        if (c == long.class || c == Long.class) return toLong(v);
        if (c == double.class || c == Double.class) return toDouble(v);
        if (c == float.class || c == Float.class) return (float) toDouble(v);
        if (c == boolean.class || c == Boolean.class) return toBool(v);
        if (c == char.class || c == Character.class) return toChar(v);
        if (c == short.class || c == Short.class) return (short) toLong(v);
        if (c == byte.class || c == Byte.class) return (byte) toLong(v);
        if (c == String.class || c == CharSequence.class) return toStr(v);
        if (v == null) return null;
        if (c == StringBuilder.class) return new StringBuilder(toStr(v));
        if (c == StringBuffer.class) return new StringBuffer(toStr(v));
        if (c == BigInteger.class) return v instanceof JNum && ((JNum) v).integral() ? new BigInteger(v.toString()) : BigInteger.valueOf(toLong(v));
        if (c == BigDecimal.class) return v instanceof JNum ? new BigDecimal(v.toString()) : BigDecimal.valueOf(toDouble(v));
        NType ent = nt == null ? null : nt.elem();
        if (c.isArray()) {
            Class<?> comp = c.getComponentType();
            if (v instanceof String && comp == char.class) return ((String) v).toCharArray();
            if (!(v instanceof List)) throw new ArgError("not an array: " + jsonOf(v));
            List<?> l = (List<?>) v;
            Object a = Array.newInstance(comp, l.size());
            for (int i = 0; i < l.size(); i++) Array.set(a, i, conv(l.get(i), comp, comp, ent));
            return a;
        }
        if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
            List<?> l;
            if (v instanceof String) {
                List<Object> cs = new ArrayList<>();
                for (char ch : ((String) v).toCharArray()) cs.add(String.valueOf(ch));
                l = cs;
            } else if (v instanceof List) {
                l = (List<?>) v;
            } else {
                throw new ArgError("not a list: " + jsonOf(v));
            }
            Collection<Object> coll = newCollection(c);
            java.lang.reflect.Type et = Object.class;
            if (g instanceof ParameterizedType) et = ((ParameterizedType) g).getActualTypeArguments()[0];
            Class<?> ec = rawClass(et);
            for (Object o : l) coll.add(conv(o, ec, et, ent));
            return coll;
        }
        if (c.isAssignableFrom(Integer.class) || c.isAssignableFrom(String.class) || c == Object.class
                || c.isAssignableFrom(ArrayList.class)) {
            return natural(v, nt, c);
        }
        throw new ArgError("cannot pass " + jsonOf(v) + " as " + c.getTypeName());
    }

    static Class<?> rawClass(java.lang.reflect.Type t) {
        if (t instanceof Class) return (Class<?>) t;
        if (t instanceof ParameterizedType) return rawClass(((ParameterizedType) t).getRawType());
        if (t instanceof java.lang.reflect.WildcardType) {
            java.lang.reflect.Type[] ub = ((java.lang.reflect.WildcardType) t).getUpperBounds();
            return ub.length > 0 ? rawClass(ub[0]) : Object.class;
        }
        if (t instanceof java.lang.reflect.GenericArrayType) {
            return Array.newInstance(rawClass(((java.lang.reflect.GenericArrayType) t).getGenericComponentType()), 0).getClass();
        }
        return Object.class;
    }

    @SuppressWarnings("unchecked")
    static Collection<Object> newCollection(Class<?> c) throws ArgError {
        if (!c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
            try {
                return (Collection<Object>) c.getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new ArgError("cannot create a " + c.getName());
            }
        }
        if (c.isAssignableFrom(ArrayList.class)) return new ArrayList<>();
        if (c.isAssignableFrom(TreeSet.class)) return new TreeSet<>();
        if (c.isAssignableFrom(LinkedHashSet.class)) return new LinkedHashSet<>();
        if (c.isAssignableFrom(ArrayDeque.class)) return new ArrayDeque<>();
        if (c.isAssignableFrom(LinkedList.class)) return new LinkedList<>();
        if (c.isAssignableFrom(PriorityQueue.class)) return new PriorityQueue<>();
        throw new ArgError("cannot create a " + c.getName());
    }

    /** The natural Java value of a JSON value of declared type nt (for Object parameters). */
    static Object natural(Object v, NType nt, Class<?> want) throws ArgError {
        if (nt == null || nt.base.isEmpty()) {
            if (v instanceof JNum) return ((JNum) v).integral() ? (Object) (int) toLong(v) : (Object) toDouble(v);
            if (v instanceof List) {
                List<Object> out = new ArrayList<>();
                for (Object o : (List<?>) v) out.add(natural(o, null, Object.class));
                return out;
            }
            return v;
        }
        if (nt.dims > 0) {
            Class<?> arr = arrayClass(nt);
            if (want.isAssignableFrom(arr)) return conv(v, arr, arr, nt);
            return conv(v, ArrayList.class, ArrayList.class, nt);
        }
        switch (nt.base) {
            case "int": return (int) toLong(v);
            case "long": return toLong(v);
            case "float": return (float) toDouble(v);
            case "double": return toDouble(v);
            case "bool": return toBool(v);
            case "char": return toChar(v);
            default: return toStr(v);
        }
    }

    static Class<?> arrayClass(NType nt) {
        Class<?> b;
        switch (nt.base) {
            case "int": b = int.class; break;
            case "long": b = long.class; break;
            case "float": b = float.class; break;
            case "double": b = double.class; break;
            case "bool": b = boolean.class; break;
            case "char": b = char.class; break;
            default: b = String.class;
        }
        for (int i = 0; i < nt.dims; i++) b = Array.newInstance(b, 0).getClass();
        return b;
    }

    // ---------------------------------------------------------------- printing values

    static void write(StringBuilder sb, Object v, int depth) {
        if (depth > 64) {
            sb.append("null");
            return;
        }
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Double) {
            writeDouble(sb, (Double) v, Double.toString((Double) v));
        } else if (v instanceof Float) {
            float f = (Float) v;
            writeDouble(sb, f, Float.toString(f));
        } else if (v instanceof Number) {
            sb.append(v);
        } else if (v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Character) {
            quote(sb, v.toString());
        } else if (v instanceof CharSequence) {
            quote(sb, v.toString());
        } else if (v.getClass().isArray()) {
            sb.append('[');
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                if (i > 0) sb.append(',');
                write(sb, Array.get(v, i), depth + 1);
            }
            sb.append(']');
        } else if (v instanceof Iterable) {
            sb.append('[');
            boolean first = true;
            for (Object o : (Iterable<?>) v) {
                if (!first) sb.append(',');
                first = false;
                write(sb, o, depth + 1);
            }
            sb.append(']');
        } else if (v instanceof javafx.util.Pair) {
            javafx.util.Pair<?, ?> p = (javafx.util.Pair<?, ?>) v;
            sb.append('[');
            write(sb, p.getKey(), depth + 1);
            sb.append(',');
            write(sb, p.getValue(), depth + 1);
            sb.append(']');
        } else if (v instanceof Optional) {
            write(sb, ((Optional<?>) v).orElse(null), depth + 1);
        } else {
            quote(sb, String.valueOf(v));
        }
    }

    static void writeDouble(StringBuilder sb, double d, String text) {
        if (Double.isNaN(d)) sb.append("\"NaN\"");
        else if (Double.isInfinite(d)) sb.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else sb.append(text);
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(sb, s);
        return sb.toString();
    }

    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    boolean lone = Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1)))
                            && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || lone) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    static String jsonOf(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v, 0);
        String s = sb.toString();
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    // ---------------------------------------------------------------- JSON input

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> asList(Object o) {
        return o == null ? new ArrayList<>() : (List<Object>) o;
    }

    /** A small JSON reader: objects, arrays, strings, numbers (kept as text), booleans, null. */
    static final class Json {
        final String s;
        int i;

        Json(String s) {
            this.s = s;
        }

        Object top() {
            Object v = value();
            ws();
            if (i != s.length()) throw err("trailing data");
            return v;
        }

        RuntimeException err(String m) {
            return new IllegalArgumentException("bad job JSON at " + i + ": " + m);
        }

        void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        Object value() {
            ws();
            if (i >= s.length()) throw err("unexpected end");
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                            continue;
                        }
                        expect('}');
                        return m;
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                            continue;
                        }
                        expect(']');
                        return l;
                    }
                }
                case '"':
                    return string();
                case 't':
                    lit("true");
                    return Boolean.TRUE;
                case 'f':
                    lit("false");
                    return Boolean.FALSE;
                case 'n':
                    lit("null");
                    return null;
                default: {
                    int st = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
                    if (st == i) throw err("unexpected character " + c);
                    return new JNum(s.substring(st, i));
                }
            }
        }

        void lit(String w) {
            if (!s.startsWith(w, i)) throw err("expected " + w);
            i += w.length();
        }

        void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) throw err("expected " + c);
            i++;
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (i >= s.length()) throw err("unterminated string");
                char c = s.charAt(i++);
                if (c == '"') return sb.toString();
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    case 'r': sb.append('\r'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'u':
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: sb.append(e);
                }
            }
        }
    }
}

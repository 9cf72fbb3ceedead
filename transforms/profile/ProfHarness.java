// Transmute's profiling harness for Java (transforms/profile). Usage:
//   java ... ProfHarness <tests.jsonl> <entry> <returns> <param type>...
// It reads every test's JSON argument array, converts them to the parameter types of
// the candidate's method (found by reflection in class Cand, or in a class nested in
// it), then calls the method once per test and prints one protocol line per test
// (transforms/execute/protocol.go) on the original stdout. The candidate's own
// output goes nowhere. The loop over the calls is bracketed by the counting helper's
// native methods (-Dtm.helper=<library>): under callgrind only its instructions are
// counted, and its thread CPU time is measured; the results are printed after it.
// With -Dtm.alloc=1 it also reports the bytes the calling thread allocated in it.
import java.io.*;
import java.lang.reflect.*;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class ProfHarness {
    static PrintStream proto;
    static native void tmStart();
    static native void tmStop();
    static native long tmThreadNs();
    static boolean helper;
    static long callsNs = -1, allocBytes = -1;

    // ---- a small JSON reader: Long/BigInteger/Double, String, Boolean, List, null ----
    static final class Json {
        final String s;
        int p;
        Json(String s) { this.s = s; }
        void ws() { while (p < s.length() && Character.isWhitespace(s.charAt(p))) p++; }
        Object value() {
            ws();
            char c = s.charAt(p);
            if (c == '[') {
                p++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(p) == ']') { p++; return l; }
                while (true) {
                    l.add(value());
                    ws();
                    char d = s.charAt(p++);
                    if (d == ']') return l;
                    if (d != ',') throw new IllegalArgumentException("bad JSON at " + p);
                }
            }
            if (c == '"') return str();
            if (s.startsWith("true", p)) { p += 4; return Boolean.TRUE; }
            if (s.startsWith("false", p)) { p += 5; return Boolean.FALSE; }
            if (s.startsWith("null", p)) { p += 4; return null; }
            int st = p;
            boolean real = false;
            while (p < s.length() && "+-0123456789.eE".indexOf(s.charAt(p)) >= 0) {
                if (".eE".indexOf(s.charAt(p)) >= 0) real = true;
                p++;
            }
            String num = s.substring(st, p);
            if (real) return Double.parseDouble(num);
            BigInteger b = new BigInteger(num);
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        String str() {
            StringBuilder b = new StringBuilder();
            p++;
            while (true) {
                char c = s.charAt(p++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(p++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u': b.append((char) Integer.parseInt(s.substring(p, p + 4), 16)); p += 4; break;
                    default: b.append(e);
                }
            }
        }
    }

    // ---- conversion of JSON values to the method's parameter types ----
    static double dbl(Object v) {
        if (v instanceof Number) return ((Number) v).doubleValue();
        if (v instanceof String) {
            String s = (String) v;
            if (s.equals("NaN")) return Double.NaN;
            if (s.equals("Infinity")) return Double.POSITIVE_INFINITY;
            if (s.equals("-Infinity")) return Double.NEGATIVE_INFINITY;
            if (s.length() == 1) return s.charAt(0);
        }
        if (v instanceof Boolean) return ((Boolean) v) ? 1 : 0;
        throw new IllegalArgumentException("not a number: " + v);
    }

    static long lng(Object v) {
        if (v instanceof Long) return (Long) v;
        if (v instanceof Number) return ((Number) v).longValue();
        if (v instanceof String && ((String) v).length() == 1) return ((String) v).charAt(0);
        if (v instanceof Boolean) return ((Boolean) v) ? 1 : 0;
        throw new IllegalArgumentException("not an integer: " + v);
    }

    static char chr(Object v) {
        if (v instanceof String && ((String) v).length() >= 1) return ((String) v).charAt(0);
        if (v instanceof Number) return (char) ((Number) v).intValue();
        throw new IllegalArgumentException("not a char: " + v);
    }

    static Object conv(Object v, Type type) {
        Class<?> c = type instanceof Class ? (Class<?>) type
                : type instanceof ParameterizedType ? (Class<?>) ((ParameterizedType) type).getRawType() : Object.class;
        if (v == null) return c.isPrimitive() ? conv(0L, type) : null;
        if (c == int.class || c == Integer.class) return (int) lng(v);
        if (c == long.class || c == Long.class) return lng(v);
        if (c == short.class || c == Short.class) return (short) lng(v);
        if (c == byte.class || c == Byte.class) return (byte) lng(v);
        if (c == double.class || c == Double.class) return dbl(v);
        if (c == float.class || c == Float.class) return (float) dbl(v);
        if (c == boolean.class || c == Boolean.class) return v instanceof Boolean ? (Boolean) v : dbl(v) != 0;
        if (c == char.class || c == Character.class) return chr(v);
        if (c == String.class || c == CharSequence.class) {
            if (v instanceof List) {
                StringBuilder b = new StringBuilder();
                for (Object o : (List<?>) v) b.append(chr(o));
                return b.toString();
            }
            return String.valueOf(v);
        }
        if (c == StringBuilder.class) return new StringBuilder(String.valueOf(v));
        if (c == BigInteger.class) return v instanceof BigInteger ? v : BigInteger.valueOf(lng(v));
        if (c.isArray()) {
            Class<?> comp = c.getComponentType();
            if (v instanceof String && comp == char.class) return ((String) v).toCharArray();
            List<?> l = (List<?>) v;
            Object a = Array.newInstance(comp, l.size());
            for (int i = 0; i < l.size(); i++) Array.set(a, i, conv(l.get(i), comp));
            return a;
        }
        if (Collection.class.isAssignableFrom(c) || c == Object.class && v instanceof List) {
            Type elem = Object.class;
            if (type instanceof ParameterizedType) elem = ((ParameterizedType) type).getActualTypeArguments()[0];
            if (elem instanceof WildcardType) elem = ((WildcardType) elem).getUpperBounds()[0];
            Collection<Object> out = c.isAssignableFrom(ArrayList.class) ? new ArrayList<>()
                    : c.isAssignableFrom(ArrayDeque.class) ? new ArrayDeque<>()
                    : c.isAssignableFrom(LinkedHashSet.class) ? new LinkedHashSet<>() : new ArrayList<>();
            if (v instanceof String) {
                for (char ch : ((String) v).toCharArray()) out.add(conv(String.valueOf(ch), elem));
            } else {
                for (Object o : (List<?>) v) out.add(conv(o, elem));
            }
            return out;
        }
        if (c == Object.class) return v instanceof Long && (long) (Long) v == (int) (long) (Long) v ? (Object) (int) (long) (Long) v : v;
        throw new IllegalArgumentException("cannot pass a value as " + type.getTypeName());
    }

    // ---- printing return values as JSON ----
    static void jstr(StringBuilder o, String s) {
        o.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': o.append("\\\""); break;
                case '\\': o.append("\\\\"); break;
                case '\n': o.append("\\n"); break;
                case '\r': o.append("\\r"); break;
                case '\t': o.append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x7f) o.append(String.format("\\u%04x", (int) c));
                    else o.append(c);
            }
        }
        o.append('"');
    }

    static void jdouble(StringBuilder o, double d) {
        if (Double.isNaN(d)) o.append("\"NaN\"");
        else if (Double.isInfinite(d)) o.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else o.append(Double.toString(d));
    }

    // pv prints v; base is the declared base type (int, char, ...).
    static void pv(StringBuilder o, Object v, String base) {
        if (v == null) { o.append("null"); return; }
        if (v instanceof Character) {
            char ch = (Character) v;
            if (base.equals("int") || base.equals("long")) o.append((int) ch);
            else jstr(o, String.valueOf(ch));
        } else if (v instanceof Float) {
            float f = (Float) v;
            if (Float.isNaN(f) || Float.isInfinite(f)) jdouble(o, f);
            else o.append(Float.toString(f));
        } else if (v instanceof Double) {
            jdouble(o, (Double) v);
        } else if (v instanceof Number || v instanceof Boolean) {
            o.append(v.toString());
        } else if (v instanceof CharSequence) {
            jstr(o, v.toString());
        } else if (v.getClass().isArray()) {
            o.append('[');
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                if (i > 0) o.append(',');
                pv(o, Array.get(v, i), base);
            }
            o.append(']');
        } else if (v instanceof Iterable) {
            o.append('[');
            boolean first = true;
            for (Object e : (Iterable<?>) v) {
                if (!first) o.append(',');
                first = false;
                pv(o, e, base);
            }
            o.append(']');
        } else {
            jstr(o, v.toString());
        }
    }

    static String baseOf(String t) {
        return t.replace("[]", "").trim();
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        String s = e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    static void fail(int t, String status, String msg) {
        StringBuilder o = new StringBuilder("{\"c\":0,\"t\":").append(t).append(",\"s\":\"").append(status).append("\",\"e\":");
        jstr(o, msg);
        proto.println(o.append('}'));
    }

    // find locates the entry method and the object to call it on.
    static Object[] find(String entry, int arity) throws Exception {
        Class<?> top = Class.forName("Cand");
        List<Class<?>> classes = new ArrayList<>();
        classes.add(top);
        classes.addAll(Arrays.asList(top.getDeclaredClasses()));
        for (Class<?> c : classes) {
            for (Method m : c.getDeclaredMethods()) {
                if (!m.getName().equals(entry) || m.getParameterCount() != arity) continue;
                m.setAccessible(true);
                Object self = null;
                if (!Modifier.isStatic(m.getModifiers())) {
                    if (c == top) {
                        Constructor<?> k = c.getDeclaredConstructor();
                        k.setAccessible(true);
                        self = k.newInstance();
                    } else if (Modifier.isStatic(c.getModifiers())) {
                        Constructor<?> k = c.getDeclaredConstructor();
                        k.setAccessible(true);
                        self = k.newInstance();
                    } else {
                        Constructor<?> k = c.getDeclaredConstructor(top);
                        k.setAccessible(true);
                        Constructor<?> kt = top.getDeclaredConstructor();
                        kt.setAccessible(true);
                        self = k.newInstance(kt.newInstance());
                    }
                }
                return new Object[] {m, self};
            }
        }
        throw new NoSuchMethodException("entry method " + entry + " with " + arity + " parameters not found");
    }

    // peakRssKB is VmHWM of this process image (the rusage figure may include the
    // parent's memory from before exec).
    static long peakRssKB() {
        try {
            for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.substring(6).replace("kB", "").trim());
            }
        } catch (Exception e) {
        }
        return 0;
    }

    public static void main(String[] argv) throws Exception {
        proto = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        PrintStream nul = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(nul);
        System.setErr(nul);
        String lib = System.getProperty("tm.helper");
        if (lib != null && !lib.isEmpty()) {
            try {
                System.load(lib);
                helper = true;
            } catch (Throwable e) {
                helper = false;
            }
        }
        String entry = argv[1], ret = argv[2];
        String[] ptypes = Arrays.copyOfRange(argv, 3, argv.length);
        List<String> lines = Files.readAllLines(Paths.get(argv[0]), StandardCharsets.UTF_8);
        final Method m;
        final Object self;
        try {
            Object[] f = find(entry, ptypes.length);
            m = (Method) f[0];
            self = f[1];
        } catch (Throwable e) {
            StringBuilder o = new StringBuilder("{\"c\":0,\"compile\":\"error\",\"msg\":");
            jstr(o, describe(e));
            proto.println(o.append('}'));
            proto.flush();
            return;
        }
        proto.println("{\"c\":0,\"compile\":\"ok\"}");
        Type[] gtypes = m.getGenericParameterTypes();
        // Convert every test's arguments before the first call.
        List<Object[]> tests = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) continue;
            Object[] args = new Object[ptypes.length];
            String err = null;
            try {
                List<?> raw = (List<?>) new Json(line).value();
                for (int i = 0; i < args.length; i++) args[i] = conv(raw.get(i), gtypes[i]);
            } catch (RuntimeException e) {
                err = describe(e);
            }
            tests.add(args);
            bad.add(err);
        }
        final boolean isVoid = ret.equals("void");
        final String base = baseOf(ret);
        // An anonymous class, not a lambda: a lambda's bootstrap costs the JVM tens of
        // milliseconds of start-up CPU.
        final Object[] res = new Object[tests.size()];
        final Throwable[] errs = new Throwable[tests.size()];
        final boolean alloc = System.getProperty("tm.alloc") != null;
        Runnable run = new Runnable() {
          public void run() {
            com.sun.management.ThreadMXBean mx = null;
            long a0 = 0;
            if (alloc) {
                mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
                a0 = mx.getCurrentThreadAllocatedBytes();
            }
            long t0 = helper ? tmThreadNs() : 0;
            if (helper) tmStart();
            for (int t = 0; t < tests.size(); t++) {
                if (bad.get(t) != null) continue;
                try {
                    res[t] = m.invoke(self, tests.get(t));
                } catch (InvocationTargetException e) {
                    errs[t] = e.getCause();
                } catch (Throwable e) {
                    errs[t] = e;
                }
            }
            if (helper) {
                tmStop();
                callsNs = tmThreadNs() - t0;
            }
            if (alloc) allocBytes = mx.getCurrentThreadAllocatedBytes() - a0;
            for (int t = 0; t < tests.size(); t++) {
                if (bad.get(t) != null) {
                    fail(t, "infra_error", "bad arguments: " + bad.get(t));
                    continue;
                }
                Object[] args = tests.get(t);
                Throwable c = errs[t];
                if (c != null) {
                    fail(t, c instanceof OutOfMemoryError ? "memory_limit" : "exception", describe(c));
                    continue;
                }
                try {
                    Object r = res[t];
                    StringBuilder o = new StringBuilder("{\"c\":0,\"t\":").append(t).append(",\"s\":\"ok\",\"v\":");
                    if (isVoid) {
                        o.append('[');
                        boolean first = true;
                        for (int i = 0; i < ptypes.length; i++) {
                            if (!ptypes[i].endsWith("[]")) continue;
                            if (!first) o.append(',');
                            first = false;
                            pv(o, args[i], baseOf(ptypes[i]));
                        }
                        o.append(']');
                    } else {
                        pv(o, r, base);
                    }
                    proto.println(o.append('}'));
                } catch (OutOfMemoryError e) {
                    fail(t, "memory_limit", describe(e));
                } catch (Throwable e) {
                    fail(t, "exception", describe(e));
                }
            }
          }
        };
        Thread th = new Thread(null, run, "main", 1L << 29);
        th.start();
        th.join();
        proto.println("{\"c\":0,\"done\":true,\"rss_kb\":" + peakRssKB() + ",\"calls_ns\":" + callsNs + ",\"alloc_peak\":" + allocBytes + "}");
        proto.flush();
        System.exit(0);
    }
}

// Transmute's javac server (transforms/profile): one JVM that compiles many
// programs with the JDK's compiler (javax.tools), warm, instead of starting javac
// per program. Each request is one line on stdin, the javac arguments separated by
// U+001F; the answer is "<exit code> <length>\n" then the compiler's messages
// (UTF-8). It only compiles (no annotation processing is on the class path), so it
// never runs the code it reads.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public class JavacServer {
  public static void main(String[] argv) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    OutputStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
    String line;
    while ((line = in.readLine()) != null) {
      String[] args = line.split("\u001f");
      ByteArrayOutputStream msgs = new ByteArrayOutputStream();
      int rc;
      try {
        rc = javac.run(null, msgs, msgs, args);
      } catch (Throwable t) {
        rc = 99;
        msgs.write(("javac server: " + t).getBytes(StandardCharsets.UTF_8));
      }
      byte[] m = msgs.toByteArray();
      out.write((rc + " " + m.length + "\n").getBytes(StandardCharsets.UTF_8));
      out.write(m);
      out.flush();
    }
  }
}

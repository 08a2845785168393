package dev.onceonly.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command of this machine (pg_ctl, rabbitmqctl) and returns its output. */
final class Shell {

  private Shell() {}

  /** The whole output, stdout and stderr; an exit code other than 0 is an error naming both. */
  static String run(Map<String, String> env, Path dir, long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    Result r = attempt(env, dir, timeoutSeconds, command);
    if (r.code() != 0) {
      throw new IOException(
          String.join(" ", command) + " exited with " + r.code() + ": " + tail(r.output()));
    }
    return r.output();
  }

  /** Exit code and output, whatever the code. */
  static Result attempt(Map<String, String> env, Path dir, long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    if (dir != null) {
      pb.directory(dir.toFile());
    }
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out after " + timeoutSeconds + " s");
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** The command as the given system user when this process runs as root, else as is. */
  static String[] as(String user, String... command) {
    if (!isRoot()) {
      return command;
    }
    List<String> all = new ArrayList<>(List.of("runuser", "-u", user, "--"));
    all.addAll(List.of(command));
    return all.toArray(String[]::new);
  }

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static String tail(String output) {
    String trimmed = output.strip();
    return trimmed.length() > 600 ? "…" + trimmed.substring(trimmed.length() - 600) : trimmed;
  }

  record Result(int code, String output) {}
}

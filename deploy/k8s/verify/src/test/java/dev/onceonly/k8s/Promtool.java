package dev.onceonly.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs promtool; fails with an install hint when it is missing. */
final class Promtool {

  /** What one run printed and how it ended. */
  record Result(int exitCode, String output) {}

  private Promtool() {}

  static Result run(String... args) {
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    try {
      Process process;
      try {
        process =
            new ProcessBuilder(command)
                .directory(Repo.root().toFile())
                .redirectErrorStream(true)
                .start();
      } catch (IOException e) {
        throw new IllegalStateException(
            "promtool is not installed: it checks and unit-tests deploy/prometheus/onceonly-rules.yml."
                + " Install it with: apt-get install prometheus (Debian/Ubuntu; deploy/run-tests.sh does)",
            e);
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("promtool " + String.join(" ", args) + " did not finish");
      }
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

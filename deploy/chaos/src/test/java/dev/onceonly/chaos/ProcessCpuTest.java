package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCpuTest {

  @Test
  void countsTheCpuOfAGroupsRootAndOfTheProcessesBelowIt() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/stat")), "Linux /proc");
    // the root (a shell) only waits; its child does the work
    Process shell = new ProcessBuilder("sh", "-c", "yes > /dev/null & wait").start();
    try {
      Map<String, Supplier<Collection<Long>>> roots = new LinkedHashMap<>();
      roots.put("busy", () -> List.of(shell.pid()));
      roots.put("idle", () -> List.of());
      ProcessCpu meter = ProcessCpu.start(roots, Duration.ofMillis(50)).orElseThrow();
      List<ProcessCpu.Sample> samples;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      do {
        samples = meter.snapshot();
      } while (last(samples, "busy") < 0.2 && System.nanoTime() < deadline);
      samples = meter.stop();

      assertThat(last(samples, "busy")).isGreaterThanOrEqualTo(0.2);
      assertThat(last(samples, "idle")).isZero();
      assertThat(last(samples, ProcessCpu.MACHINE)).isGreaterThanOrEqualTo(last(samples, "busy"));
      assertThat(last(samples, ProcessCpu.CAPACITY))
          .isGreaterThanOrEqualTo(last(samples, ProcessCpu.MACHINE));
      for (int i = 1; i < samples.size(); i++) {
        assertThat(samples.get(i).seconds().get("busy"))
            .isGreaterThanOrEqualTo(samples.get(i - 1).seconds().get("busy"));
      }
    } finally {
      shell.descendants().forEach(ProcessHandle::destroyForcibly);
      shell.destroyForcibly();
    }
  }

  @Test
  void readsThePidOnAPidFilesFirstLineAndNothingFromAFileThatIsNotOne(@TempDir Path dir)
      throws Exception {
    Path postmaster = Files.writeString(dir.resolve("postmaster.pid"), "4242\n/var/lib/pg\n");
    Path garbage = Files.writeString(dir.resolve("node.pid"), "not a pid\n");

    assertThat(ProcessCpu.pidFile(postmaster)).containsExactly(4242L);
    assertThat(ProcessCpu.pidFile(garbage)).isEmpty();
    assertThat(ProcessCpu.pidFile(dir.resolve("missing.pid"))).isEmpty();
  }

  private static double last(List<ProcessCpu.Sample> samples, String group) {
    return samples.get(samples.size() - 1).seconds().get(group);
  }
}

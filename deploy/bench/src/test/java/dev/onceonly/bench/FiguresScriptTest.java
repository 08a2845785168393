package dev.onceonly.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * figures.sh, which the consumer and relay benchmarks source for their verdicts: a figure is judged
 * as measured, never rounded first, and the largest of several phases is named.
 */
class FiguresScriptTest {

  private static final Path SCRIPT = Path.of("figures.sh");

  @Test
  void judgesRssAsMeasuredNotRounded() throws Exception {
    assertThat(run("verdict '256.30 <= 256'")).isEqualTo("MISS");
    assertThat(run("verdict '255.96 <= 256'")).isEqualTo("PASS");
    assertThat(run("verdict '256 <= 256 && 250.4 <= 256'")).isEqualTo("PASS");
  }

  @Test
  void namesTheLargestPhaseWhereverItComes() throws Exception {
    assertThat(run("largest fresh=248.5 duplicates=246 poisoned-2=256.30 duplicates-2=251"))
        .isEqualTo("256.3 poisoned-2");
    assertThat(run("largest drain=231.4 latency=229.9")).isEqualTo("231.4 drain");
    assertThat(run("largest fresh=90 duplicates=100")).isEqualTo("100 duplicates");
    assertThat(run("largest only=7.25")).isEqualTo("7.25 only");
    assertThat(run("largest")).isEmpty();
  }

  @Test
  void feedsReadUnderSetE() throws Exception {
    // the benchmarks run with set -e: read fails on a last line without its newline
    assertThat(run("set -e; read -r v n < <(largest a=1 b=2.5); echo \"$n $v\""))
        .isEqualTo("b 2.5");
  }

  /** Sources figures.sh in a fresh bash and runs {@code command}; its output, trimmed. */
  private static String run(String command) throws IOException, InterruptedException {
    assertThat(SCRIPT).as("run from deploy/bench, where the script is").isRegularFile();
    Process p =
        new ProcessBuilder(List.of("bash", "-c", "source ./figures.sh && " + command))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}

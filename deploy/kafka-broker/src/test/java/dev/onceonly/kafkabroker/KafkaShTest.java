package dev.onceonly.kafkabroker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka.sh, the scripts' way to a broker: start waits for ready and prints the bootstrap address,
 * status tells whether it runs, kill is a kill -9 after which start finds the same topics, stop is
 * clean, and a taken port is exit status 3 with a line naming it.
 */
class KafkaShTest {

  private static final Path SCRIPT = Path.of("kafka.sh");

  @TempDir Path dir;
  private int port;

  @AfterEach
  void killLeftovers() throws Exception {
    if (port != 0) {
      run("kill", port);
    }
  }

  @Test
  void startKillStartStopKeepsTheTopics() throws Exception {
    port = freePortPair();

    Run start = run("start", port);
    assertThat(start.exit).as(start.output).isZero();
    assertThat(start.output).contains("ready: bootstrap=127.0.0.1:" + port);
    assertThat(run("status", port).exit).isZero();
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get();
    }

    Run kill = run("kill", port);
    assertThat(kill.output).contains("killed");
    assertThat(run("status", port).exit).isEqualTo(1);

    Run again = run("start", port);
    assertThat(again.exit).as(again.output).isZero();
    assertThat(Files.readString(dir.resolve("broker.log")))
        .contains("reusing the storage formatted in " + dir.resolve("kraft"));
    try (Admin admin = admin()) {
      assertThat(admin.listTopics().names().get()).contains("kept");
    }

    Run stop = run("stop", port);
    assertThat(stop.output).contains("stopped");
    assertThat(run("status", port).exit).isEqualTo(1);
    assertThat(dir.resolve("kraft/.kafka_cleanshutdown")).exists();
  }

  @Test
  void aTakenPortIsExitStatus3NamingThePort() throws Exception {
    int taken = freePortPair();
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", taken));

      Run start = run("start", taken);

      assertThat(start.exit).as(start.output).isEqualTo(3);
      assertThat(start.output)
          .contains("port " + taken + " on 127.0.0.1 is taken")
          .contains(dir.resolve("broker.log").toString());
    }
  }

  private Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port));
  }

  private Run run(String command, int port) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of("bash", SCRIPT.toString(), command));
    line.add(Integer.toString(port));
    line.add(dir.toString());
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as(output).isTrue();
    return new Run(process.exitValue(), output);
  }

  private static int freePortPair() {
    for (int i = 0; i < 100; i++) {
      int candidate = ThreadLocalRandom.current().nextInt(20_000, 32_000);
      if (free(candidate) && free(candidate + 1)) {
        return candidate;
      }
    }
    throw new IllegalStateException("no two free consecutive ports below 32000");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private record Run(int exit, String output) {}
}

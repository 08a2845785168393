package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeardownTest {

  private final List<String> closed = new ArrayList<>();

  private AutoCloseable named(String name) {
    return () -> closed.add(name);
  }

  @Test
  void anInterruptedSuiteStopsWhatItStartedInReverseOrderOnce() throws Exception {
    Teardown teardown = new Teardown();
    teardown.add(named("postgres"));
    teardown.add(named("rabbit"));
    teardown.add(named("fleet"));

    Thread hook = teardown.hook();
    hook.start(); // what the JVM does on SIGTERM or Ctrl-C
    hook.join();
    teardown.close(); // the suite's own close, after the hook

    assertThat(closed).containsExactly("fleet", "rabbit", "postgres");
  }

  @Test
  void aSuiteThatEndsStopsEverythingAndLeavesNoHook() {
    Teardown teardown = new Teardown();
    teardown.add(named("postgres"));
    teardown.add(named("fleet"));

    teardown.close();

    assertThat(closed).containsExactly("fleet", "postgres");
    assertThat(Runtime.getRuntime().removeShutdownHook(teardown.hook())).isFalse();
  }

  @Test
  void oneResourceThatFailsToStopDoesNotKeepTheOthersRunning() {
    Teardown teardown = new Teardown();
    teardown.add(named("postgres"));
    teardown.add(
        () -> {
          throw new IllegalStateException("broker already gone");
        });
    teardown.add(named("fleet"));

    teardown.close();

    assertThat(closed).containsExactly("fleet", "postgres");
  }
}

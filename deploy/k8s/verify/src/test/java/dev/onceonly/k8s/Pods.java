package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/** The pods of one run: started, probed, scraped, and all killed if the test fails. */
final class Pods implements AutoCloseable {

  private final List<PodProcess> started = new ArrayList<>();

  PodProcess add(PodProcess pod) {
    started.add(pod);
    return pod;
  }

  /** Waits until {@code probe} of the manifest answers 200, failing early if the pod died. */
  static void awaitProbe(PodProcess pod, String probe, Duration limit) {
    await()
        .atMost(limit)
        .pollInterval(Duration.ofMillis(250))
        .failFast(pod.pod + " exited\n" + pod.tail(), () -> !pod.alive())
        .until(() -> Http.get(pod.probeUrl(probe)).status() == 200);
  }

  /**
   * Waits until the pod's readiness answers 503 naming one of {@code reasons}, failing early if the
   * pod died or was ready meanwhile. A service's first answer may come before its first look at
   * what it waits for (the consumer's schema gate says "not checked yet" until then).
   */
  static void awaitNotReadyBecause(PodProcess pod, Duration limit, String... reasons) {
    AtomicReference<Http.Answer> last = new AtomicReference<>();
    await()
        .atMost(limit)
        .pollInterval(Duration.ofMillis(250))
        .failFast(
            pod.pod + " exited, or answered ready",
            () -> !pod.alive() || (last.get() != null && last.get().status() == 200))
        .until(
            () -> {
              Http.Answer ready = Http.get(pod.probeUrl("readinessProbe"));
              last.set(ready);
              return ready.status() == 503
                  && Arrays.stream(reasons).anyMatch(ready.body()::contains);
            });
  }

  /** All three probes of the manifest answer 200 at their paths and ports. */
  static void assertHealthy(PodProcess pod) {
    for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
      Http.Answer answer = Http.get(pod.probeUrl(probe));
      assertThat(answer.status())
          .as(pod.pod + " " + probe + " " + pod.probeUrl(probe) + ": " + answer.body())
          .isEqualTo(200);
    }
  }

  /** The sample names a pod's /q/metrics (management port) exports. */
  static Set<String> exported(PodProcess pod) {
    Http.Answer answer = Http.get("http://127.0.0.1:" + pod.port("management") + "/q/metrics");
    assertThat(answer.status()).as(pod.pod + " /q/metrics").isEqualTo(200);
    Set<String> names = new TreeSet<>();
    answer
        .body()
        .lines()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .forEach(l -> names.add(l.split("[{ ]", 2)[0]));
    return names;
  }

  @Override
  public void close() {
    started.forEach(PodProcess::kill);
  }
}

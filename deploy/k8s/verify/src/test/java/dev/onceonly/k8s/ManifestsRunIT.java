package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the manifests, not a copy of them: the rendered dev overlay's containers start here as the
 * kubelet would start them (DevOverlay), the migrations Job's container while the services already
 * wait for it, two replicas of each service under a stream of orders, and one replica of each
 * stopped mid-stream as Kubernetes stops a pod (preStop, SIGTERM, SIGKILL after the grace period).
 */
class ManifestsRunIT {

  private static final int ORDERS = 1200;
  private static final Duration START = Duration.ofMinutes(3);
  private static final Duration DRAIN = Duration.ofMinutes(3);

  private static Rendered dev;
  private static DevOverlay overlay;
  private static Backing backing;

  @BeforeAll
  static void backing() {
    dev = Rendered.overlay("dev");
    overlay = new DevOverlay(dev, Path.of("target", "k8s-run").toAbsolutePath());
    backing = Backing.start(dev, overlay.manifestNames);
    overlay.backedBy(backing);
  }

  @AfterAll
  static void cleanUp() {
    if (backing != null) {
      backing.close();
    }
  }

  @Test
  void theDevOverlayRunsMigratesAndStopsLikeKubernetesWithNothingLostOrStuck() throws Exception {
    JsonNode consumer = dev.one("Deployment", "consumer-service");
    JsonNode relay = dev.one("Deployment", "outbox-relay");
    JsonNode sandbox = dev.one("Deployment", "provider-sandbox");
    JsonNode job = dev.all("Job").get(0);
    try (Pods pods = new Pods()) {
      PodProcess provider = pods.add(overlay.start(sandbox, "provider-sandbox-0"));
      Pods.awaitProbe(provider, "readinessProbe", START);
      overlay.serves("provider-sandbox", provider, "http");

      // Kubernetes starts the Deployments and the Job together: the services wait for the schema.
      PodProcess consumerA = pods.add(overlay.start(consumer, "consumer-service-a"));
      PodProcess relayA = pods.add(overlay.start(relay, "outbox-relay-a"));
      for (PodProcess pod : List.of(consumerA, relayA)) {
        Pods.awaitProbe(pod, "startupProbe", START);
        Pods.awaitProbe(pod, "livenessProbe", Duration.ofSeconds(10));
        Http.Answer ready = Http.get(pod.probeUrl("readinessProbe"));
        assertThat(ready.status()).as(pod.pod + " ready before the migrations").isEqualTo(503);
        assertThat(ready.body()).as(pod.pod).containsAnyOf("pending V1", "does not exist");
      }
      PodProcess migrate = pods.add(overlay.start(job, Rendered.name(job) + "-x7k2p"));
      int exit =
          migrate.awaitExit(
              Duration.ofSeconds(job.path("spec").path("activeDeadlineSeconds").asLong()));
      assertThat(exit).as(migrate.tail()).isZero();
      for (PodProcess pod : List.of(consumerA, relayA)) {
        Pods.awaitProbe(pod, "readinessProbe", Duration.ofSeconds(30));
        Pods.assertHealthy(pod);
      }
      PodProcess consumerB = pods.add(overlay.start(consumer, "consumer-service-b"));
      PodProcess relayB = pods.add(overlay.start(relay, "outbox-relay-b"));
      for (PodProcess pod : List.of(consumerB, relayB)) {
        Pods.awaitProbe(pod, "readinessProbe", START);
        Pods.assertHealthy(pod);
      }
      Pods.assertHealthy(provider);
      operatorsLogIn(consumerA, relayA);

      try (Stream stream =
          new Stream(backing.endpoint("postgres"), backing.endpoint("rabbitmq"), overlay.names())) {
        String sandboxUrl = "http://127.0.0.1:" + provider.port("http");
        // One row refused for good (its key already took a different body) and one retried once:
        // the dead and retry outcomes the dashboard and the alerts read.
        String deadKey = stream.run + "-dead";
        assertThat(Http.post(sandboxUrl + "/v1/receipts", "{\"to\":\"first\"}", deadKey).status())
            .isEqualTo(201);
        stream.insertOutbox("send_receipt", deadKey, "{\"to\":\"second\"}");
        String retryKey = stream.run + "-retry";
        assertThat(
                Http.put(
                        sandboxUrl + "/sandbox/faults",
                        "{\"script\":{\"" + retryKey + "\":[\"503\",\"ok\"]}}")
                    .status())
            .isEqualTo(200);
        stream.insertOutbox("send_receipt", retryKey, "{\"to\":\"retry\"}");
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    "dead".equals(stream.status(deadKey))
                        && "delivered".equals(stream.status(retryKey)));

        // Slow calls, a few that hang past the relay's read timeout: calls are in flight at the
        // stop.
        assertThat(
                Http.put(
                        sandboxUrl + "/sandbox/faults",
                        "{\"seed\":7,\"latencyMs\":40,\"hangRate\":0.03,\"hangMs\":15000}")
                    .status())
            .isEqualTo(200);
        stream.publish(ORDERS, 12);
        await().atMost(Duration.ofSeconds(60)).until(() -> stream.published.get() >= ORDERS / 3);
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(60))
            .until(() -> stream.receipts() > 50);

        Set<String> consumerNames = new TreeSet<>(Pods.exported(consumerA));
        Set<String> relayNames = new TreeSet<>(Pods.exported(relayA));
        CompletableFuture<PodProcess.Stop> consumerStop = stopLater(consumerA, consumer);
        CompletableFuture<PodProcess.Stop> relayStop = stopLater(relayA, relay);
        assertStoppedByItself(consumerA, consumerStop.get());
        assertStoppedByItself(relayA, relayStop.get());
        assertThat(stream.attemptsBy("outbox-relay-a"))
            .as("relay a delivered before its stop")
            .isPositive();
        assertThat(stream.inFlightLeasedBy("outbox-relay-a"))
            .as("relay a released its leases")
            .isZero();
        assertThat(Http.delete(sandboxUrl + "/sandbox/faults").status()).isEqualTo(200);

        await()
            .atMost(Duration.ofSeconds(90))
            .until(
                () -> {
                  stream.checkPublisher();
                  return stream.published.get() == ORDERS;
                });
        await()
            .pollInSameThread()
            .atMost(DRAIN)
            .until(
                () ->
                    stream.claims("loyalty") == ORDERS
                        && stream.claims("receipts") == ORDERS
                        && stream.receipts("delivered") == ORDERS
                        && stream.unfinished() == 0);
        assertThat(stream.ledgerRows()).as("one credit per order").isEqualTo(ORDERS);
        assertThat(stream.receipts()).as("one receipt row per order").isEqualTo(ORDERS);
        assertThat(stream.balancesOffLedger()).isZero();
        for (String queue :
            List.of(
                "onceonly.loyalty",
                "onceonly.receipts",
                "onceonly.loyalty.dlq",
                "onceonly.receipts.dlq",
                "onceonly.profiles.dlq")) {
          assertThat(stream.queueDepth(queue)).as(queue).isZero();
        }
        JsonNode stats = Rendered.YAML.readTree(Http.get(sandboxUrl + "/sandbox/stats").body());
        assertThat(stats.findPath("receipts").path("effectiveCalls").asLong())
            .as(
                "each receipt taken once by the provider (the stream, the retried row, the first body of the dead key)")
            .isEqualTo(ORDERS + 2);

        consumerNames.addAll(Pods.exported(consumerB));
        relayNames.addAll(Pods.exported(relayB));
        assertUsedMetricsExported(consumerNames, relayNames);

        for (PodProcess pod : List.of(consumerB, relayB)) {
          assertStoppedByItself(
              pod, stopLater(pod, pod.pod.startsWith("consumer") ? consumer : relay).get());
        }
        assertThat(stream.inFlightLeasedBy("outbox-relay")).isZero();
        assertStoppedByItself(provider, stopLater(provider, sandbox).get());
      }
    }
  }

  @Test
  void aMissingSecretKeyOrVariableStopsThePodAtOnceNamingIt() throws Exception {
    // The kubelet: a Secret without a key the container names is refused before it starts.
    Rendered incomplete = Rendered.overlay("dev");
    JsonNode secret = incomplete.generated("Secret", "onceonly-secrets");
    ((ObjectNode) secret.path("data")).remove("RABBITMQ_PASSWORD");
    JsonNode consumer = incomplete.one("Deployment", "consumer-service");
    assertThatThrownBy(() -> ContainerEnv.of(incomplete, ContainerEnv.onlyContainer(consumer)))
        .hasMessageContaining("couldn't find key RABBITMQ_PASSWORD in Secret onceonly-secrets");

    // The service: started without the variable (e.g. an optional reference), it stops at once.
    JsonNode deployed = dev.one("Deployment", "consumer-service");
    Map<String, String> env =
        overlay.environment(deployed, "consumer-service-nosecret", DevOverlay.freePorts(deployed));
    env.remove("RABBITMQ_PASSWORD");
    env.remove("DB_USER");
    PodProcess pod = overlay.start(deployed, "consumer-service-nosecret", env);
    try {
      assertThat(pod.awaitExit(Duration.ofSeconds(30))).isNotZero();
      assertThat(pod.output())
          .contains("RABBITMQ_PASSWORD", "DB_USER")
          .doesNotContain("Listening on");
    } finally {
      pod.kill();
    }
  }

  private static void operatorsLogIn(PodProcess consumer, PodProcess relay) throws Exception {
    // The dev Secret's hashes are those of operator/operator-dev and viewer/viewer-dev.
    JsonNode secret = dev.generated("Secret", "onceonly-secrets");
    String hash =
        new String(
            java.util.Base64.getMimeDecoder()
                .decode(secret.path("data").path("OPERATOR_PASSWORD_HASH").asText()),
            StandardCharsets.UTF_8);
    String expected =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-512")
                    .digest("operator:onceonly:operator-dev".getBytes(StandardCharsets.UTF_8)));
    assertThat(hash).isEqualTo(expected);
    assertThat(
            Http.get(
                    "http://127.0.0.1:" + relay.port("http") + "/outbox/stats",
                    "operator",
                    "operator-dev")
                .status())
        .isEqualTo(200);
    assertThat(
            Http.get(
                    "http://127.0.0.1:" + consumer.port("http") + "/conflicts",
                    "viewer",
                    "viewer-dev")
                .status())
        .isEqualTo(200);
    assertThat(
            Http.get("http://127.0.0.1:" + consumer.port("http") + "/conflicts", "viewer", "wrong")
                .status())
        .isEqualTo(401);
  }

  private static CompletableFuture<PodProcess.Stop> stopLater(PodProcess pod, JsonNode deployment) {
    long grace = Rendered.podSpec(deployment).path("terminationGracePeriodSeconds").asLong(30);
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return pod.stopLikeKubernetes(grace);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static void assertStoppedByItself(PodProcess pod, PodProcess.Stop stop) {
    assertThat(stop.exitedByItself())
        .as(pod.pod + " was still running at the end of its grace period (SIGKILL)\n" + pod.tail())
        .isTrue();
    System.out.printf(
        "%s stopped in %d ms (exit %d)%n", pod.pod, stop.took().toMillis(), stop.exitCode());
  }

  /** Every metric the alerting rules and the dashboard query is exported (Prometheus' up aside). */
  private static void assertUsedMetricsExported(Set<String> consumerNames, Set<String> relayNames) {
    Set<String> exported = new TreeSet<>(consumerNames);
    exported.addAll(relayNames);
    Set<String> used = new TreeSet<>(PromQl.ofRules());
    used.addAll(PromQl.ofDashboard());
    used.remove("up");
    assertThat(exported).as("metrics the rules and the dashboard use").containsAll(used);
    assertThat(consumerNames).contains("onceonly_consumer_queue_messages");
    assertThat(relayNames)
        .contains("onceonly_relay_dead_total", "onceonly_relay_oldest_pending_age_seconds");
  }
}

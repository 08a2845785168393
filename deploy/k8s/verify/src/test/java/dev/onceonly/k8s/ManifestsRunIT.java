package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceonly.model.IdempotencyKeys;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.OutboxKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
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
        // not ready before the migrations, and saying why once it has looked
        Pods.awaitNotReadyBecause(pod, Duration.ofSeconds(10), "pending V1", "does not exist");
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

        assertOneMessageIsFollowedFromTheBrokerToTheProvider(stream, relayB, sandboxUrl);

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
    // The kubelet: a Secret without a key a container names is refused before it starts.
    assertRefusedByTheKubelet("consumer-service", "RABBITMQ_PASSWORD");
    assertRefusedByTheKubelet("outbox-relay", "OPERATOR_PASSWORD_HASH");
    assertRefusedByTheKubelet("outbox-relay", "DB_PASSWORD");

    // The services: started without variables (e.g. optional references), they stop at once.
    JsonNode consumer = dev.one("Deployment", "consumer-service");
    Map<String, String> consumerEnv =
        overlay.environment(consumer, "consumer-service-nosecret", DevOverlay.freePorts(consumer));
    consumerEnv.remove("RABBITMQ_PASSWORD");
    consumerEnv.remove("DB_USER");

    JsonNode relay = dev.one("Deployment", "outbox-relay");
    Map<String, String> relayEnv =
        overlay.environment(relay, "outbox-relay-nosettings", DevOverlay.freePorts(relay));
    relayEnv.remove("DB_USER");
    relayEnv.remove("RECEIPTS_URL");

    // The relay without the Secret's user hashes: nobody could use its API.
    List<String> userVariables = new ArrayList<>();
    for (JsonNode entry : ContainerEnv.onlyContainer(relay).path("env")) {
      if (entry.path("valueFrom").path("secretKeyRef").path("key").asText().endsWith("_HASH")) {
        userVariables.add(entry.path("name").asText());
      }
    }
    assertThat(userVariables)
        .containsExactlyInAnyOrder(
            "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR",
            "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_VIEWER");
    Map<String, String> usersEnv =
        overlay.environment(relay, "outbox-relay-nousers", DevOverlay.freePorts(relay));
    userVariables.forEach(usersEnv::remove);

    try (Pods pods = new Pods()) {
      PodProcess consumerPod =
          pods.add(overlay.start(consumer, "consumer-service-nosecret", consumerEnv));
      PodProcess relayPod = pods.add(overlay.start(relay, "outbox-relay-nosettings", relayEnv));
      PodProcess usersPod = pods.add(overlay.start(relay, "outbox-relay-nousers", usersEnv));

      assertThat(consumerPod.awaitExit(Duration.ofSeconds(30))).as(consumerPod.tail()).isNotZero();
      assertThat(consumerPod.output())
          .contains("RABBITMQ_PASSWORD", "DB_USER")
          .doesNotContain("Listening on");

      assertThat(relayPod.awaitExit(Duration.ofSeconds(30))).as(relayPod.tail()).isNotZero();
      assertThat(relayPod.output())
          .contains("outbox-relay cannot start", "DB_USER", "RECEIPTS_URL (or PROVIDER_URL)")
          .doesNotContain("Listening on");

      assertThat(usersPod.awaitExit(Duration.ofSeconds(60))).as(usersPod.tail()).isNotZero();
      assertThat(usersPod.output())
          .contains("no credentials configured", "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_<NAME>")
          .doesNotContain("Listening on");
    }
  }

  /** As the kubelet: {@code deployment}'s container is not started without {@code key}. */
  private static void assertRefusedByTheKubelet(String deployment, String key) {
    Rendered incomplete = Rendered.overlay("dev");
    JsonNode secret = incomplete.generated("Secret", "onceonly-secrets");
    assertThat(secret.path("data").has(key)).as("dev Secret key " + key).isTrue();
    ((ObjectNode) secret.path("data")).remove(key);
    JsonNode container = ContainerEnv.onlyContainer(incomplete.one("Deployment", deployment));
    assertThatThrownBy(() -> ContainerEnv.of(incomplete, container))
        .as(deployment + " without " + key)
        .hasMessageContaining("couldn't find key " + key + " in Secret onceonly-secrets");
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

  /**
   * Every metric the alerting rules and the dashboard query is exported by the service its
   * expression's job, or else its name's prefix, points at (MetricOwners); Prometheus' up aside.
   */
  private static void assertUsedMetricsExported(Set<String> consumerNames, Set<String> relayNames) {
    assertThat(
            MetricOwners.problems(
                Map.of(MetricOwners.CONSUMER, consumerNames, MetricOwners.RELAY, relayNames)))
        .as("metrics the rules and the dashboard use, by the service that must export them")
        .isEmpty();
    assertThat(consumerNames).contains("onceonly_consumer_queue_messages");
    assertThat(relayNames)
        .contains("onceonly_relay_dead_total", "onceonly_relay_oldest_pending_age_seconds");
  }

  /**
   * One order published with a producer's W3C {@code traceparent} (a trace id chosen here): its
   * receipt row, as the relay's API shows it, and the provider's record of the call carry that
   * trace id. Tracing export is off in the dev overlay, as by default: the context passes through
   * the consumer's claim, the outbox row and the relay's call unchanged.
   */
  private static void assertOneMessageIsFollowedFromTheBrokerToTheProvider(
      Stream stream, PodProcess relay, String sandboxUrl) throws Exception {
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String traceId = HexFormat.of().formatHex(random, 0, 16);
    String traceparent = "00-" + traceId + "-" + HexFormat.of().formatHex(random, 16, 24) + "-01";
    OrderCompleted order =
        new OrderCompleted(
            UUID.randomUUID(),
            stream.run + "-traced",
            stream.run + "-traced-customer",
            "traced@example.com",
            4_200,
            "EUR",
            Instant.now());
    stream.publishOne(order, Map.of("traceparent", traceparent));

    // The receipts consumer's row for this message, by the key the relay's README describes.
    String key = IdempotencyKeys.derive(OutboxKind.SEND_RECEIPT, "receipts", order.messageKey());
    String relayUrl = "http://127.0.0.1:" + relay.port("http");
    ObjectMapper json = new ObjectMapper();
    JsonNode listed =
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> {
                  Http.Answer page =
                      Http.get(relayUrl + "/outbox?idempotencyKey=" + key, "viewer", "viewer-dev");
                  assertThat(page.status()).as(page.body()).isEqualTo(200);
                  return json.readTree(page.body()).path("items").path(0);
                },
                row -> "delivered".equals(row.path("status").asText()));
    Http.Answer one =
        Http.get(relayUrl + "/outbox/" + listed.path("id").asLong(), "operator", "operator-dev");
    assertThat(one.status()).as(one.body()).isEqualTo(200);
    JsonNode detail = json.readTree(one.body());
    assertThat(detail.path("row").path("sourceMessageKey").asText()).isEqualTo(order.messageKey());
    assertThat(detail.path("row").path("traceId").asText())
        .as("GET /outbox/{id}: the row's trace id")
        .isEqualTo(traceId);
    assertThat(detail.path("attempts").findValuesAsText("traceId"))
        .as("GET /outbox/{id}: each attempt's trace id")
        .isNotEmpty()
        .allMatch(traceId::equals);

    Http.Answer calls = Http.get(sandboxUrl + "/sandbox/calls/receipts/" + key);
    assertThat(calls.status()).as(calls.body()).isEqualTo(200);
    JsonNode view = json.readTree(calls.body());
    assertThat(view.path("effectId").isTextual()).as("the receipt took effect").isTrue();
    List<String> traceparents = new ArrayList<>();
    view.path("traceparents").forEach(t -> traceparents.add(t.asText()));
    assertThat(traceparents)
        .as("the provider's calls with " + key)
        .isNotEmpty()
        .allSatisfy(t -> assertThat(t).matches("00-" + traceId + "-[0-9a-f]{16}-[0-9a-f]{2}"));
  }
}

package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.k8s.Backing.Endpoint;
import dev.onceonly.testsupport.KafkaBroker;
import dev.onceonly.testsupport.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Runs the dev-kafka overlay (overlays/dev-kafka, components/kafka), not a copy of it: its
 * migrations Job and consumer-service start here as the kubelet would start them (DevOverlay), the
 * Service kafka answered by a real KRaft broker, and orders published to Kafka as a producer would,
 * every tenth twice, are applied once by loyalty and by receipts.
 */
class DevKafkaRunIT {

  private static final int ORDERS = 200;
  private static final Duration START = Duration.ofMinutes(3);

  @Test
  void theDevKafkaOverlayAppliesEveryOrderFromKafkaOnce() throws Exception {
    Rendered devKafka = Rendered.overlay("dev-kafka");
    DevOverlay overlay =
        new DevOverlay(devKafka, Path.of("target", "k8s-kafka-run").toAbsolutePath());
    JsonNode consumer = devKafka.one("Deployment", "consumer-service");
    JsonNode job = devKafka.all("Job").get(0);
    try (Backing backing = Backing.start(devKafka, overlay.manifestNames);
        KafkaBroker broker = KafkaBroker.builder().start();
        Pods pods = new Pods()) {
      overlay.backedBy(backing);
      overlay.serves("kafka", new Endpoint(KafkaBroker.HOST, broker.port()));

      PodProcess migrate = pods.add(overlay.start(job, Rendered.name(job) + "-k4fk4"));
      assertThat(migrate.awaitExit(START)).as(migrate.tail()).isZero();
      PodProcess pod = pods.add(overlay.start(consumer, "consumer-service-kafka"));
      Pods.awaitProbe(pod, "readinessProbe", START);
      Pods.assertHealthy(pod);

      try (Stream stream = new Stream(backing.endpoint("postgres"), null, overlay.names());
          KafkaTopics kafka = new KafkaTopics(broker.bootstrapServers())) {
        stream.publishTo(kafka, ORDERS);
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(90))
            .until(
                () ->
                    stream.claims("loyalty") == ORDERS
                        && stream.claims("receipts") == ORDERS
                        && stream.ledgerRows() == ORDERS
                        && stream.receipts() == ORDERS);
        assertThat(stream.balancesOffLedger()).isZero();
        Pods.assertHealthy(pod);
      }
    }
  }
}

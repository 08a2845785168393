package dev.onceonly.internal.messaging;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.onceonly.consumer.Broker;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter publisher on the test broker: handlers never wait for it, dead letters that
 * arrive together are published together, and stopping publishes what still waits.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class DeadLettersTest {

  private static final ConsumerSpec CONSUMER =
      new ConsumerSpec(
          "profiles", "profiles", "onceonly.profiles", false, Object.class, null, null);
  private static final String DLQ = CONSUMER.deadLetterQueue();
  private static final DeadLetters.Original ORIGINAL =
      new DeadLetters.Original(
          "loyalty.events", "customer.profile-changed", Map.of("x-test", "kept"), "text/plain");

  private Broker broker;

  @BeforeEach
  void connect() throws Exception {
    broker = Broker.connect();
    broker.purge(DLQ);
  }

  @AfterEach
  void disconnect() throws Exception {
    broker.purge(DLQ);
    broker.close();
  }

  private static DeadLetters publisher(Duration linger) {
    return new DeadLetters(
        BrokerConnections.factory(ConfigProvider.getConfig()), "onceonly.dlx", linger);
  }

  private static CompletableFuture<Void> send(DeadLetters letters, int i) {
    return letters.send(
        CONSUMER,
        ORIGINAL,
        ("bad #" + i).getBytes(StandardCharsets.UTF_8),
        "invalid",
        "reason #" + i);
  }

  @Test
  void handlersGoOnWhileTheDeadLettersLingerThenAllArePublishedAndConfirmed() throws Exception {
    DeadLetters letters = publisher(Duration.ofSeconds(2));
    try {
      List<CompletableFuture<Void>> sent = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        sent.add(send(letters, i));
      }
      // Nothing published yet, and no handler held: every send returned before its confirm.
      assertThat(sent).noneMatch(CompletableFuture::isDone);
      assertThat(broker.depth(DLQ)).isZero();

      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(15, TimeUnit.SECONDS);
      List<GetResponse> dead = drain();
      assertThat(dead)
          .extracting(d -> new String(d.getBody(), StandardCharsets.UTF_8))
          .containsExactly("bad #0", "bad #1", "bad #2", "bad #3", "bad #4");
      GetResponse first = dead.get(0);
      Map<String, Object> headers = first.getProps().getHeaders();
      assertThat(headers.get(DeadLetters.HEADER_REASON)).hasToString("reason #0");
      assertThat(headers.get(DeadLetters.HEADER_FAILURE)).hasToString("invalid");
      assertThat(headers.get(DeadLetters.HEADER_CONSUMER)).hasToString("profiles");
      assertThat(headers.get(DeadLetters.HEADER_ORIGINAL_ROUTING_KEY))
          .hasToString("customer.profile-changed");
      assertThat(headers.get("x-test")).hasToString("kept");
      assertThat(first.getProps().getContentType()).isEqualTo("text/plain");
      assertThat(first.getProps().getDeliveryMode()).isEqualTo(2);
    } finally {
      letters.close();
    }
  }

  @Test
  void stoppingPublishesWhatStillWaitsAndRefusesWhatComesAfter() throws Exception {
    DeadLetters letters = publisher(Duration.ofMinutes(5));
    CompletableFuture<Void> waiting = send(letters, 7);
    assertThat(waiting).isNotDone();

    letters.close();

    assertThat(waiting).succeedsWithin(Duration.ofSeconds(5));
    assertThat(drain())
        .extracting(d -> new String(d.getBody(), StandardCharsets.UTF_8))
        .containsExactly("bad #7");
    assertThat(send(letters, 8))
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableThat()
        .withMessageContaining("the dead-letter publisher is stopped");
  }

  @Test
  void aBrokerSlowToAnswerHoldsNoHandler() throws Exception {
    CountDownLatch connecting = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    ConnectionFactory unreachable =
        new ConnectionFactory() {
          @Override
          public Connection newConnection(String name) throws IOException {
            connecting.countDown();
            try {
              answer.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new IOException("broker unreachable");
          }
        };
    DeadLetters letters = new DeadLetters(unreachable, "onceonly.dlx", Duration.ofMillis(1));
    try {
      CompletableFuture<Void> first = send(letters, 1);
      assertThat(connecting.await(10, TimeUnit.SECONDS)).as("flushing, stuck connecting").isTrue();

      CompletableFuture<CompletableFuture<Void>> second =
          CompletableFuture.supplyAsync(() -> send(letters, 2));
      assertThat(second).as("the next handler queues its letter").succeedsWithin(5, SECONDS);

      answer.countDown();
      for (CompletableFuture<Void> letter : List.of(first, second.join())) {
        assertThat(letter)
            .failsWithin(10, SECONDS)
            .withThrowableThat()
            .withMessageContaining("broker unreachable");
      }
    } finally {
      answer.countDown();
      letters.close();
    }
  }

  @Test
  void aNegativeLingerIsRefusedByName() {
    assertThatThrownBy(() -> publisher(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quarkus.onceonly.dead-letters.linger");
  }

  /** Takes every message of the dead-letter queue, in order. */
  private List<GetResponse> drain() throws Exception {
    List<GetResponse> all = new ArrayList<>();
    for (GetResponse r = broker.channel().basicGet(DLQ, true);
        r != null;
        r = broker.channel().basicGet(DLQ, true)) {
      all.add(r);
    }
    return all;
  }
}

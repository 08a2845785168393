package dev.onceonly.internal.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmCallback;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Return;
import com.rabbitmq.client.ReturnCallback;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import dev.onceonly.internal.catalog.Specs;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter publisher across channels, on a broker faked in memory so that its events can
 * come in any order: a channel that confirms or closes late, after a new one took over, touches
 * none of the new one's letters (sequence numbers start again at 1 on every channel); a nack fails
 * the letters it names; a letter returned as unroutable fails though the broker confirms it.
 */
class DeadLettersChannelsTest {

  private static final DeadLetters.Original ORIGINAL =
      new DeadLetters.Original("loyalty.events", "order.completed", Map.of(), "application/json");

  /** What the fake broker saw of one channel, and its listeners, to call when a test says. */
  private static final class FakeChannel {
    boolean open = true;
    long next = 1;
    final List<String> published = new ArrayList<>();
    final List<AMQP.BasicProperties> properties = new ArrayList<>();
    final List<String> publishedOn = new ArrayList<>();
    ConfirmCallback ack;
    ReturnCallback returned;
    ConfirmCallback nack;
    ShutdownListener shutdown;

    Channel proxy() {
      return (Channel)
          Proxy.newProxyInstance(
              Channel.class.getClassLoader(),
              new Class<?>[] {Channel.class},
              (p, method, args) ->
                  switch (method.getName()) {
                    case "isOpen" -> open;
                    case "getNextPublishSeqNo" -> next;
                    case "basicPublish" -> {
                      properties.add((AMQP.BasicProperties) args[3]);
                      publishedOn.add(Thread.currentThread().getName());
                      published.add(new String((byte[]) args[4], StandardCharsets.UTF_8));
                      next++;
                      yield null;
                    }
                    case "addConfirmListener" -> {
                      ack = (ConfirmCallback) args[0];
                      nack = (ConfirmCallback) args[1];
                      yield null;
                    }
                    case "addShutdownListener" -> {
                      shutdown = (ShutdownListener) args[0];
                      yield null;
                    }
                    case "addReturnListener" -> {
                      returned = (ReturnCallback) args[0];
                      yield null;
                    }
                    case "confirmSelect" -> null;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                  });
    }
  }

  private final List<FakeChannel> channels = new ArrayList<>();

  private final ConnectionFactory broker =
      new ConnectionFactory() {
        @Override
        public Connection newConnection(String name) {
          FakeChannel channel = new FakeChannel();
          channels.add(channel);
          Channel proxy = channel.proxy();
          return (Connection)
              Proxy.newProxyInstance(
                  Connection.class.getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, method, args) ->
                      switch (method.getName()) {
                        case "createChannel" -> proxy;
                        case "abort" -> {
                          channel.open = false;
                          yield null;
                        }
                        case "hashCode" -> System.identityHashCode(p);
                        case "equals" -> p == args[0];
                        default -> throw new UnsupportedOperationException(method.getName());
                      });
        }
      };

  /** Sends with a linger of 0 and returns once the publishing thread has published it. */
  private CompletableFuture<Void> send(DeadLetters letters, String body) throws Exception {
    CompletableFuture<Void> sent =
        letters.send(
            Specs.consumer("loyalty"),
            ORIGINAL,
            body.getBytes(StandardCharsets.UTF_8),
            "invalid",
            "reason of " + body);
    letters.awaitFlushed();
    return sent;
  }

  @Test
  void aFullBatchIsPublishedAtOnceWhateverTheLinger() throws Exception {
    DeadLetters letters = new DeadLetters(broker, "onceonly.dlx", Duration.ofHours(1));
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    for (int i = 1; i < DeadLetters.FULL_BATCH; i++) {
      sent.add(
          letters.send(
              Specs.consumer("loyalty"),
              ORIGINAL,
              ("letter " + i).getBytes(StandardCharsets.UTF_8),
              "invalid",
              "reason " + i));
    }
    letters.awaitFlushed();
    assertThat(channels).as("fewer than a full batch wait for the linger").isEmpty();

    sent.add(send(letters, "letter " + DeadLetters.FULL_BATCH));

    assertThat(channels.get(0).published)
        .as("the last letter of a full batch sends all of them, in the order they came")
        .hasSize(DeadLetters.FULL_BATCH)
        .startsWith("letter 1", "letter 2")
        .endsWith("letter " + DeadLetters.FULL_BATCH);
    channels.get(0).ack.handle(DeadLetters.FULL_BATCH, true);
    assertThat(sent).allSatisfy(f -> assertThat(f).isCompleted());
  }

  @Test
  void withNoLingerTheSenderStillNeitherConnectsNorPublishes() throws Exception {
    DeadLetters letters = new DeadLetters(broker, "onceonly.dlx", Duration.ZERO);

    send(letters, "first");

    assertThat(channels.get(0).publishedOn)
        .as("the connector's event loop hands it over and goes on")
        .containsExactly("onceonly-dead-letters");
  }

  @Test
  void aLateConfirmOrCloseOfAnOldChannelSettlesNoneOfTheNewOnesLetters() throws Exception {
    DeadLetters letters = new DeadLetters(broker, "onceonly.dlx", Duration.ZERO);
    CompletableFuture<Void> first = send(letters, "first");
    FakeChannel old = channels.get(0);
    old.open = false; // the broker closed it; its events have not been read yet

    CompletableFuture<Void> second = send(letters, "second");
    FakeChannel fresh = channels.get(1);
    assertThat(fresh.published).containsExactly("second");
    assertThat(first).as("unconfirmed on a channel that closed").isCompletedExceptionally();

    old.ack.handle(1, false);
    assertThat(second).as("the old channel's confirm of its own #1").isNotDone();
    old.shutdown.shutdownCompleted(new ShutdownSignalException(false, false, null, null));
    assertThat(second).as("the old channel's late close").isNotDone();

    fresh.ack.handle(1, false);
    assertThat(second).succeedsWithin(Duration.ofSeconds(5));
  }

  @Test
  void aNackFailsOnlyTheLettersItNames() throws Exception {
    DeadLetters letters = new DeadLetters(broker, "onceonly.dlx", Duration.ZERO);
    CompletableFuture<Void> first = send(letters, "first");
    CompletableFuture<Void> second = send(letters, "second");
    CompletableFuture<Void> third = send(letters, "third");
    FakeChannel channel = channels.get(0);

    channel.nack.handle(2, false);
    channel.ack.handle(3, true);

    assertThat(first).succeedsWithin(Duration.ofSeconds(5));
    assertThat(second)
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableThat()
        .withMessageContaining("nacked by the broker");
    assertThat(third).succeedsWithin(Duration.ofSeconds(5));
  }

  @Test
  void aDeadLetterTheBrokerCannotRouteFailsThoughItsConfirmFollows() throws Exception {
    DeadLetters letters = new DeadLetters(broker, "onceonly.dlx", Duration.ZERO);
    CompletableFuture<Void> first = send(letters, "first");
    CompletableFuture<Void> second = send(letters, "second");
    FakeChannel channel = channels.get(0);

    // mandatory and unroutable (its queue deleted): the broker returns it, then confirms it
    channel.returned.handle(
        new Return(
            312,
            "NO_ROUTE",
            "onceonly.dlx",
            "onceonly.loyalty",
            channel.properties.get(1),
            "second".getBytes(StandardCharsets.UTF_8)));
    channel.ack.handle(2, true);

    assertThat(second)
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableThat()
        .withMessageContaining("unroutable: 312 NO_ROUTE");
    assertThat(first).succeedsWithin(Duration.ofSeconds(5));
  }
}

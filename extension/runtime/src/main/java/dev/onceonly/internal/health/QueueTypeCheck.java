package dev.onceonly.internal.health;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.config.OnceOnlyConfig.QueueType;
import dev.onceonly.internal.messaging.BrokerConnections;
import dev.onceonly.internal.messaging.DeclaredQueues;
import dev.onceonly.internal.messaging.DeclaredQueues.DeclaredQueue;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * Refuses to start when a consumer's queue or dead-letter queue already exists with another type or
 * other arguments than this service declares it with. RabbitMQ fixes both when a queue is first
 * declared and answers a different redeclare with {@code PRECONDITION_FAILED}, which the connector
 * only logs: the service would look started and consume nothing. Each existing queue is redeclared
 * here, on a connection of its own, with exactly the arguments the connector uses ({@link
 * DeclaredQueues}): a no-op where they match; a queue that does not exist yet is left to the
 * connector. The error names each queue, its type, the configured type and the move ({@code
 * docs/rabbitmq.md}).
 */
@Singleton
public class QueueTypeCheck {

  /** RabbitMQ's reply when a redeclare's argument differs from the queue's. */
  private static final Pattern INEQUIVALENT =
      Pattern.compile("inequivalent arg '([^']+)'.*but current is (none|(?:the value )?'([^']*)')");

  private static final int NOT_FOUND = 404;
  private static final int PRECONDITION_FAILED = 406;

  private final ConnectionFactory factory;
  private final List<DeclaredQueue> queues;
  private final QueueType configured;

  public QueueTypeCheck(
      Config config,
      OnceOnlyConfig onceOnly,
      ConsumerCatalog catalog,
      @Any Instance<Map<String, ?>> argumentBeans) {
    this.factory = BrokerConnections.factory(config);
    this.configured = onceOnly.queues().type();
    this.queues = new ArrayList<>();
    for (ConsumerSpec consumer : catalog.all()) {
      if (consumer.kafka()) {
        continue; // a topic, not a queue (docs/kafka.md)
      }
      queues.addAll(
          DeclaredQueues.of(
              consumer,
              config,
              id -> {
                Instance<Map<String, ?>> bean = argumentBeans.select(Identifier.Literal.of(id));
                return bean.isResolvable() ? bean.get() : null;
              }));
    }
  }

  /** After {@link BrokerStartupCheck}, which waits for the broker. */
  void onStart(@Observes @Priority(Interceptor.Priority.APPLICATION + 600) StartupEvent event) {
    if (!queues.isEmpty()) {
      require(factory, queues, configured);
    }
  }

  /** Throws naming every queue that exists with another type or other arguments. */
  static void require(ConnectionFactory factory, List<DeclaredQueue> queues, QueueType configured) {
    List<String> problems = new ArrayList<>();
    try (Connection connection = factory.newConnection("onceonly-queue-check")) {
      for (DeclaredQueue queue : queues) {
        String problem = check(connection, queue, configured);
        if (problem != null) {
          problems.add(problem);
        }
      }
    } catch (IOException | TimeoutException e) {
      throw new IllegalStateException(
          "cannot check the consumers' queues on RabbitMQ: " + e.getMessage(), e);
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("\n", problems));
    }
  }

  /** Null when the queue is absent or matches; otherwise what is wrong and what to do. */
  private static String check(Connection connection, DeclaredQueue queue, QueueType configured)
      throws IOException {
    // A failed declare closes the channel it was asked on: each question gets its own.
    try (Channel passive = connection.createChannel()) {
      passive.queueDeclarePassive(queue.name());
    } catch (IOException e) {
      if (replyCode(e) == NOT_FOUND) {
        return null;
      }
      throw e;
    } catch (TimeoutException | ShutdownSignalException closedByBroker) {
      // The channel was closed by the broker's answer already.
    }
    try (Channel redeclare = connection.createChannel()) {
      redeclare.queueDeclare(queue.name(), true, false, false, queue.arguments());
      return null;
    } catch (IOException e) {
      if (replyCode(e) != PRECONDITION_FAILED) {
        throw e;
      }
      return problem(queue, configured, replyText(e));
    } catch (TimeoutException | ShutdownSignalException closedByBroker) {
      return null;
    }
  }

  /** The error for a queue RabbitMQ refused to redeclare with {@code reply}. */
  static String problem(DeclaredQueue queue, QueueType configured, String reply) {
    String kind = queue.deadLetters() ? "dead-letter queue" : "queue";
    Matcher m = INEQUIVALENT.matcher(reply);
    if (m.find() && m.group(1).equals("x-queue-type")) {
      String current = m.group(3) == null ? "classic" : m.group(3);
      return "RabbitMQ "
          + kind
          + " '"
          + queue.name()
          + "' is a "
          + current
          + " queue, but quarkus.onceonly.queues.type is "
          + configured.argument()
          + ": RabbitMQ fixes a queue's type when the queue is first declared. Move the queue to "
          + configured.argument()
          + " (docs/rabbitmq.md, \"Moving a classic queue to quorum\": drain it and delete it so"
          + " the service declares it again, or declare a new queue and shovel the messages over),"
          + " or set quarkus.onceonly.queues.type="
          + current
          + " (QUARKUS_ONCEONLY_QUEUES_TYPE="
          + current
          + ") to keep it as it is. (RabbitMQ said: "
          + reply
          + ")";
    }
    return "RabbitMQ "
        + kind
        + " '"
        + queue.name()
        + "' exists with other arguments than this service declares it with "
        + queue.arguments()
        + ": RabbitMQ fixes a queue's arguments when the queue is first declared. Set them back"
        + " (quarkus.onceonly.queues.delivery-limit, the channel's queue.* settings) or move the"
        + " queue as docs/rabbitmq.md describes. (RabbitMQ said: "
        + reply
        + ")";
  }

  private static int replyCode(IOException e) {
    return e.getCause() instanceof ShutdownSignalException s
            && s.getReason() instanceof com.rabbitmq.client.AMQP.Channel.Close close
        ? close.getReplyCode()
        : -1;
  }

  private static String replyText(IOException e) {
    return e.getCause() instanceof ShutdownSignalException s
            && s.getReason() instanceof com.rabbitmq.client.AMQP.Channel.Close close
        ? close.getReplyText()
        : String.valueOf(e.getMessage());
  }
}

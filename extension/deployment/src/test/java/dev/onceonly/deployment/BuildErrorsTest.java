package dev.onceonly.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.api.Dated;
import dev.onceonly.api.Delivery;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.OnceOnlyConsumer;
import dev.onceonly.api.Outcome;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A mistake in a consumer fails the build with a message that names the class and says what to do,
 * instead of a surprise at run time.
 */
class BuildErrorsTest {

  /** A valid event. */
  public record Parcel(String id, Instant occurredAt) implements Dated {}

  /** An event with no date. */
  public record Undated(String id) {}

  /** An event Jackson cannot build: abstract, with no type information. */
  public abstract static class Shape implements Dated {}

  static QuarkusUnitTest failing(String expected, Class<?>... classes) {
    return new QuarkusUnitTest()
        .withApplicationRoot(jar -> jar.addClasses(classes))
        .overrideConfigKey("mp.messaging.incoming.parcels.connector", "smallrye-rabbitmq")
        .overrideConfigKey("mp.messaging.incoming.other.connector", "smallrye-rabbitmq")
        // Never reached: the build fails first. Set so that no Dev Service is asked for.
        .overrideConfigKey("quarkus.devservices.enabled", "false")
        .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/none")
        .assertException(message(expected));
  }

  static Consumer<Throwable> message(String expected) {
    return thrown -> {
      StringBuilder all = new StringBuilder();
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        all.append(t.getMessage()).append('\n');
      }
      assertThat(all.toString()).contains(expected);
    };
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "parcels", channel = "")
  public static class NoChannel implements IdempotentHandler<Parcel> {
    @Override
    public Outcome handle(Parcel event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "parcels", channel = "parcels")
  public static class First implements IdempotentHandler<Parcel> {
    @Override
    public Outcome handle(Parcel event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "parcels", channel = "other")
  public static class SameName implements IdempotentHandler<Parcel> {
    @Override
    public Outcome handle(Parcel event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "undated", channel = "parcels")
  public static class WithUndatedEvent implements IdempotentHandler<Undated> {
    @Override
    public Outcome handle(Undated event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "shapes", channel = "parcels")
  public static class WithAbstractEvent implements IdempotentHandler<Shape> {
    @Override
    public Outcome handle(Shape event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @OnceOnlyConsumer(name = "parcels", channel = "parcels")
  public static class NotABean implements IdempotentHandler<Parcel> {
    @Override
    public Outcome handle(Parcel event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @ApplicationScoped
  @OnceOnlyConsumer(name = "parcels", channel = "parcels")
  public static class NotAHandler {}

  @ApplicationScoped
  @OnceOnlyConsumer(name = "unwired", channel = "unwired")
  public static class NoConnector implements IdempotentHandler<Parcel> {
    @Override
    public Outcome handle(Parcel event, Delivery delivery) {
      return Outcome.APPLIED;
    }
  }

  @Nested
  class HandlerWithoutChannel {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing(
            NoChannel.class.getName() + ": @OnceOnlyConsumer names no channel",
            NoChannel.class,
            Parcel.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class TwoConsumersWithOneName {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing("two consumers named 'parcels'", First.class, SameName.class, Parcel.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class EventWithoutDate {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing(
            WithUndatedEvent.class.getName() + ": its event type",
            WithUndatedEvent.class,
            Undated.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class EventThatCannotBeDeserialised {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing("is abstract and cannot be deserialised", WithAbstractEvent.class, Shape.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class HandlerThatIsNotABean {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing(
            NotABean.class.getName() + " is a @OnceOnlyConsumer (parcels) but not a bean",
            NotABean.class,
            Parcel.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class ClassThatIsNoHandler {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing(
            NotAHandler.class.getName()
                + ": a @OnceOnlyConsumer must implement IdempotentHandler<E>",
            NotAHandler.class);

    @Test
    void failsTheBuild() {}
  }

  @Nested
  class ChannelWithoutConnector {
    @RegisterExtension
    static final QuarkusUnitTest app =
        failing("channel unwired of OnceOnly consumer unwired", NoConnector.class, Parcel.class);

    @Test
    void failsTheBuild() {}
  }
}

package dev.onceonly.internal.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.internal.config.ChannelDefaults;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.intake.JsonEventDecoder;
import dev.onceonly.internal.schema.PlatformMigrations;
import io.quarkus.arc.Arc;
import io.quarkus.arc.SyntheticCreationalContext;
import io.quarkus.runtime.annotations.Recorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Turns what the build found about the consumers into the {@link ConsumerCatalog} bean. */
@Recorder
public class OnceOnlyRecorder {

  /** One consumer as the build found it, in a form the recorder can carry into the runtime. */
  public static final class Found {
    private String name;
    private String channel;
    private boolean claims;
    private String eventType;
    private String handler;
    private String decoder;

    public Found() {}

    public Found(
        String name,
        String channel,
        boolean claims,
        String eventType,
        String handler,
        String decoder) {
      this.name = name;
      this.channel = channel;
      this.claims = claims;
      this.eventType = eventType;
      this.handler = handler;
      this.decoder = decoder;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public String getChannel() {
      return channel;
    }

    public void setChannel(String channel) {
      this.channel = channel;
    }

    public boolean isClaims() {
      return claims;
    }

    public void setClaims(boolean claims) {
      this.claims = claims;
    }

    public String getEventType() {
      return eventType;
    }

    public void setEventType(String eventType) {
      this.eventType = eventType;
    }

    public String getHandler() {
      return handler;
    }

    public void setHandler(String handler) {
      this.handler = handler;
    }

    /** The decoder bean's class, or null for the JSON decoder. */
    public String getDecoder() {
      return decoder;
    }

    public void setDecoder(String decoder) {
      this.decoder = decoder;
    }
  }

  /** The migration files the build listed, by location. */
  public void migrations(Map<String, List<String>> files) {
    PlatformMigrations.files(files);
  }

  /** Migrates the platform's and the outbox's histories, if the service migrates at start. */
  public void migrate() {
    Arc.container().instance(PlatformMigrations.class).get().migrateAtStart();
  }

  public Function<SyntheticCreationalContext<ConsumerCatalog>, ConsumerCatalog> catalog(
      List<Found> found) {
    return context -> {
      OnceOnlyConfig config = context.getInjectedReference(OnceOnlyConfig.class);
      ObjectMapper mapper = context.getInjectedReference(ObjectMapper.class);
      Config mp = ConfigProvider.getConfig();
      List<ConsumerSpec> specs = new ArrayList<>();
      for (Found f : found) {
        Class<?> eventType = load(f.getEventType());
        String prefix = "mp.messaging.incoming." + f.getChannel() + ".";
        String connector =
            mp.getOptionalValue(prefix + "connector", String.class)
                .orElse(ChannelDefaults.RABBITMQ);
        boolean kafka = ChannelDefaults.KAFKA.equals(connector);
        // On Kafka a channel reads one topic or several (topics, comma-separated).
        String queue =
            (kafka
                    ? mp.getOptionalValue(prefix + "topic", String.class)
                        .or(() -> mp.getOptionalValue(prefix + "topics", String.class))
                    : mp.getOptionalValue(prefix + "queue.name", String.class))
                .orElse(f.getChannel());
        // The dead-letter topic as the connector will use it: the application's, or the default
        // the platform gives the channel (ChannelDefaults).
        String deadLetters =
            kafka
                ? mp.getOptionalValue(prefix + "dead-letter-queue.topic", String.class)
                    .orElse(queue + ".dlt")
                : queue + ".dlq";
        OnceOnlyConfig.Consumer settings = config.consumers().get(f.getName());
        specs.add(
            new ConsumerSpec(
                f.getName(),
                f.getChannel(),
                queue,
                f.isClaims(),
                eventType,
                bean(f.getHandler()),
                f.getDecoder() == null
                    ? new JsonEventDecoder(mapper, eventType, settings.key())
                    : bean(f.getDecoder()),
                connector,
                settings.maxInFlight(),
                deadLetters));
      }
      return new ConsumerCatalog(specs);
    };
  }

  @SuppressWarnings("unchecked")
  private static <T> T bean(String className) {
    return (T) Arc.container().instance(load(className)).get();
  }

  private static Class<?> load(String className) {
    try {
      return Class.forName(className, false, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("class " + className + " found at build time is missing", e);
    }
  }
}

package dev.onceonly.relay.destination.kafka;

import dev.onceonly.relay.config.DestinationConfig.KafkaConfig;
import dev.onceonly.relay.destination.Template;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A Kafka destination's settings, checked at start: {@link #of} refuses anything the relay could
 * not publish with, with a message naming the key ({@code key} turns {@code topic} into {@code
 * relay.destinations."<name>".kafka.topic}). The producer properties it makes are checked by
 * Kafka's own {@link ProducerConfig} too, so a property of the wrong type stops the start rather
 * than the first publish. A property's value is never part of a message or {@link #target()}: it
 * may be a password ({@code sasl.jaas.config}).
 *
 * @param key the record key's template; null: the row's ordering key (none when the row has none)
 * @param properties the pass-through producer properties ({@code kafka.properties.*})
 */
public record KafkaSettings(
    String bootstrapServers,
    String topic,
    Template key,
    String idempotencyHeader,
    Duration connectTimeout,
    Duration sendTimeout,
    Map<String, String> properties) {

  /** Kafka's legal topic names ({@code org.apache.kafka.common.internals.Topic}). */
  private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

  private static final Pattern SERVER = Pattern.compile("[^\\s,]+:[0-9]{1,5}");

  /** What the relay sets itself and a destination may not change: exactly-once needs them. */
  static final Set<String> FIXED =
      Set.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ProducerConfig.ACKS_CONFIG,
          ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
          ProducerConfig.MAX_BLOCK_MS_CONFIG,
          ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
          ProducerConfig.TRANSACTIONAL_ID_CONFIG);

  /**
   * The settings {@code config} describes, or an {@link IllegalArgumentException} naming the key.
   */
  public static KafkaSettings of(KafkaConfig config, UnaryOperator<String> key) {
    String servers =
        config
            .bootstrapServers()
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        key.apply("bootstrap-servers")
                            + " is required for type kafka (host:port[,host:port...])"));
    for (String server : servers.split(",")) {
      if (!SERVER.matcher(server.strip()).matches()) {
        throw new IllegalArgumentException(
            key.apply("bootstrap-servers")
                + " must be host:port[,host:port...], was '"
                + servers
                + "'");
      }
    }
    String topic =
        config
            .topic()
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        key.apply("topic") + " is required for type kafka"));
    if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
      throw new IllegalArgumentException(
          key.apply("topic")
              + " must be a Kafka topic name (letters, digits, . _ -, at most 249), was '"
              + topic
              + "'");
    }
    Template recordKey = null;
    if (config.key().isPresent()) {
      try {
        recordKey = Template.parse(config.key().get());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            key.apply("key") + " is not a valid template: " + e.getMessage());
      }
    }
    String header = config.idempotencyHeader().strip();
    if (header.isEmpty()) {
      throw new IllegalArgumentException(
          key.apply("idempotency-header") + " must name a header (message-id by default)");
    }
    atLeast(config.connectTimeout(), Duration.ofMillis(100), key.apply("connect-timeout"));
    atLeast(config.sendTimeout(), Duration.ofSeconds(1), key.apply("send-timeout"));
    Map<String, String> properties = new TreeMap<>(config.properties());
    for (String name : properties.keySet()) {
      String property = key.apply("properties.\"" + name + "\"");
      if (FIXED.contains(name)) {
        throw new IllegalArgumentException(
            property
                + " is set by the relay (bootstrap-servers, connect-timeout and send-timeout are"
                + " keys of their own; the producer is always idempotent with acks=all):"
                + " remove it");
      }
      if (!ProducerConfig.configNames().contains(name)) {
        throw new IllegalArgumentException(property + " is not a Kafka producer property");
      }
    }
    KafkaSettings settings =
        new KafkaSettings(
            servers,
            topic,
            recordKey,
            header,
            config.connectTimeout(),
            config.sendTimeout(),
            Map.copyOf(properties));
    ProducerConfig checked;
    try {
      checked = new ProducerConfig(settings.producerProperties("check"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException(key.apply("properties") + ": " + e.getMessage());
    }
    long needed =
        checked.getLong(ProducerConfig.LINGER_MS_CONFIG)
            + checked.getInt(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
    if (needed > config.sendTimeout().toMillis()) {
      throw new IllegalArgumentException(
          key.apply("send-timeout")
              + " must be at least linger.ms + request.timeout.ms ("
              + needed
              + " ms), was "
              + config.sendTimeout());
    }
    return settings;
  }

  /**
   * The producer's properties: the pass-through ones, then what the relay fixes. {@code
   * enable.idempotence} with {@code acks=all}: the broker drops the copies the producer's own
   * retries would otherwise append (each record is written once per send), and a partition keeps
   * the order of sends. What the producer cannot prevent is a send repeated by the outbox after a
   * relay crash: that copy carries the same idempotency header, for the consumer's claim.
   */
  public Properties producerProperties(String clientId) {
    Properties props = new Properties();
    props.putAll(properties);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, properties.getOrDefault("client.id", clientId));
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(connectTimeout.toMillis()));
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(sendTimeout.toMillis()));
    // One request's timeout: half the send timeout, so that the producer can try twice in it.
    props.putIfAbsent(
        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
        Long.toString(Math.max(500, sendTimeout.toMillis() / 2)));
    return props;
  }

  /** Where it publishes, for logs and operators: never a property's value. */
  public String target() {
    String protocol = properties.get("security.protocol");
    return "publish to Kafka topic "
        + topic
        + " on "
        + bootstrapServers
        + (protocol == null ? "" : " (" + protocol + ")")
        + ", key "
        + (key == null ? "the row's ordering key" : key.text())
        + ", idempotent (acks=all)";
  }

  private static void atLeast(Duration duration, Duration least, String key) {
    if (duration.compareTo(least) < 0) {
      throw new IllegalArgumentException(key + " must be at least " + least + ", was " + duration);
    }
  }

  @Override
  public String toString() {
    return target();
  }
}

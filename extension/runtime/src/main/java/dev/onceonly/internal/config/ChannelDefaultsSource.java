package dev.onceonly.internal.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The consumers' channel defaults ({@link ChannelDefaults}) as a configuration source, made when
 * the service starts from the connector each channel is configured with then: below every source
 * the application has (ordinal {@value #ORDINAL}), so that any setting of its own wins. The build
 * lists the consumers' channels in {@value #CHANNELS} ({@code <channel>=<consumer>}).
 */
public class ChannelDefaultsSource implements ConfigSourceFactory {

  /** Written by the build: one line {@code <channel>=<consumer>} per consumer. */
  public static final String CHANNELS = "META-INF/onceonly/channels.properties";

  /** Below application.properties (250) and META-INF/microprofile-config.properties (100). */
  static final int ORDINAL = 50;

  @Override
  public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
    Map<String, String> defaults = new HashMap<>();
    channels()
        .forEach(
            (channel, consumer) -> {
              String prefix = "mp.messaging.incoming." + channel + ".";
              ConfigValue connector = context.getValue(prefix + "connector");
              if (connector == null || connector.getValue() == null) {
                throw new IllegalStateException(
                    "channel "
                        + channel
                        + " of OnceOnly consumer "
                        + consumer
                        + " has no connector: set "
                        + prefix
                        + "connector to one of "
                        + String.join(", ", ChannelDefaults.SUPPORTED));
              }
              ChannelDefaults.of(connector.getValue(), consumer, channel)
                  .forEach((key, value) -> defaults.put(prefix + key, value));
            });
    return List.of(new PropertiesConfigSource(defaults, "OnceOnly channel defaults", ORDINAL));
  }

  @Override
  public OptionalInt getPriority() {
    return OptionalInt.of(ORDINAL);
  }

  /** The consumers' channels the build listed, none if it listed none. */
  static Map<String, String> channels() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ChannelDefaultsSource.class.getClassLoader();
    }
    Properties listed = new Properties();
    try (InputStream in = loader.getResourceAsStream(CHANNELS)) {
      if (in != null) {
        listed.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + CHANNELS, e);
    }
    Map<String, String> channels = new TreeMap<>();
    listed.forEach((channel, consumer) -> channels.put((String) channel, (String) consumer));
    return channels;
  }
}

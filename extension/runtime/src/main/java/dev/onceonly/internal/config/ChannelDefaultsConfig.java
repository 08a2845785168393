package dev.onceonly.internal.config;

import io.quarkus.runtime.configuration.ConfigBuilder;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Adds {@link ChannelDefaultsSource} to the service's configuration when it starts. */
public class ChannelDefaultsConfig implements ConfigBuilder {

  @Override
  public SmallRyeConfigBuilder configBuilder(SmallRyeConfigBuilder builder) {
    return builder.withSources(new ChannelDefaultsSource());
  }
}

package dev.onceonly.deployment;

import io.quarkus.builder.item.SimpleBuildItem;
import java.util.List;

/** The application's consumers, validated, sorted by name. */
public final class ConsumersBuildItem extends SimpleBuildItem {

  private final List<FoundConsumer> consumers;

  ConsumersBuildItem(List<FoundConsumer> consumers) {
    this.consumers = List.copyOf(consumers);
  }

  List<FoundConsumer> all() {
    return consumers;
  }
}

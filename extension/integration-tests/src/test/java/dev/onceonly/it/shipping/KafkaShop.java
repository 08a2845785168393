package dev.onceonly.it.shipping;

import dev.onceonly.testsupport.KafkaTopics;

/**
 * The shop on Kafka: publishes orders to a topic with the producer's id in header {@code
 * message-id}, reads the dead-letter topic, and tells where the consumer group's committed offsets
 * are (test-support's {@link KafkaTopics}).
 */
final class KafkaShop extends KafkaTopics {

  KafkaShop(String bootstrap) {
    super(bootstrap);
  }
}

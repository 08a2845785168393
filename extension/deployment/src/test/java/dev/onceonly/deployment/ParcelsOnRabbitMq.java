package dev.onceonly.deployment;

import io.quarkus.test.QuarkusUnitTest;
import java.util.Map;

/**
 * A service with one consumer ({@link BuildErrorsTest.First}) reading a given RabbitMQ queue of a
 * test broker, with no database in reach: for tests of what happens at start, before any message
 * needs one.
 */
final class ParcelsOnRabbitMq {

  private ParcelsOnRabbitMq() {}

  static QuarkusUnitTest service(Map<String, String> broker, String queue) {
    return new QuarkusUnitTest()
        .withApplicationRoot(
            jar ->
                jar.addClasses(
                    ParcelsOnRabbitMq.class,
                    BuildErrorsTest.First.class,
                    BuildErrorsTest.Parcel.class))
        .overrideConfigKey("mp.messaging.incoming.parcels.connector", "smallrye-rabbitmq")
        .overrideConfigKey("mp.messaging.incoming.parcels.queue.name", queue)
        .overrideConfigKey("rabbitmq-host", broker.get("rabbitmq-host"))
        .overrideConfigKey("rabbitmq-port", broker.get("rabbitmq-port"))
        .overrideConfigKey("rabbitmq-username", broker.get("rabbitmq-username"))
        .overrideConfigKey("rabbitmq-password", broker.get("rabbitmq-password"))
        .overrideConfigKey("rabbitmq-virtual-host", broker.get("rabbitmq-virtual-host"))
        .overrideConfigKey("quarkus.onceonly.migrate-at-start", "false")
        .overrideConfigKey("quarkus.devservices.enabled", "false")
        .overrideConfigKey("quarkus.http.test-port", "0")
        .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/none");
  }
}

package dev.onceonly.consumer.tls;

import dev.onceonly.testsupport.tls.TlsPostgresResource;
import dev.onceonly.testsupport.tls.TlsRabbitMqResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The consumer with TLS-only listeners in front of its broker and its database, each with a CA of
 * its own made by the test: nothing else is configured, so every connection it makes is TLS.
 */
public class TlsOnlyProfile implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of("quarkus.onceonly.broker.queue-depth-refresh", "1s");
  }

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of(
        new TestResourceEntry(
            TlsPostgresResource.class, Map.of("database", "onceonly_consumer_test")),
        new TestResourceEntry(TlsRabbitMqResource.class));
  }

  @Override
  public boolean disableGlobalTestResources() {
    return true;
  }
}

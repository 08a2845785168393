package dev.onceonly.relay.tls;

import dev.onceonly.relay.support.TlsOutboxResource;
import dev.onceonly.relay.support.TlsRelayRabbitResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;

/**
 * The relay with TLS-only listeners in front of its database ({@code sslmode=verify-full}) and of
 * its RabbitMQ destination's broker, each trusting only a CA the test made.
 */
public class TlsOnlyRelayProfile implements QuarkusTestProfile {

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of(
        new TestResourceEntry(TlsOutboxResource.class),
        new TestResourceEntry(TlsRelayRabbitResource.class));
  }

  @Override
  public boolean disableGlobalTestResources() {
    return true;
  }
}

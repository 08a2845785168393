package dev.onceonly.testsupport.tls;

import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * RabbitMQ over TLS only, for a Quarkus test: the broker of {@link RabbitMqResource} behind a
 * {@link TlsProxy} whose certificate a {@link TestCa} of this resource signed for {@code 127.0.0.1}
 * and {@code localhost}. The service is given the proxy's port, TLS on and the CA's PEM file
 * ({@code quarkus.onceonly.broker.tls.*}): its broker connections can only be TLS ones. {@link
 * #proxy()} tells a test how many handshakes it served.
 */
public class TlsRabbitMqResource implements QuarkusTestResourceLifecycleManager {

  private static volatile TlsProxy proxy;

  private final RabbitMqResource plain = new RabbitMqResource();
  private Path dir;

  /** The running proxy of the current test (one Quarkus application at a time). */
  public static TlsProxy proxy() {
    return proxy;
  }

  @Override
  public Map<String, String> start() {
    Map<String, String> config = new HashMap<>(plain.start());
    TestCa ca = TestCa.create("OnceOnly test broker CA");
    try {
      dir = Files.createTempDirectory("onceonly-broker-ca");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    proxy =
        TlsProxy.start(
            ca.issue("127.0.0.1", "localhost"),
            TlsProxy.Protocol.DIRECT,
            config.get("rabbitmq-host"),
            Integer.parseInt(config.get("rabbitmq-port")));
    config.put("rabbitmq-host", "127.0.0.1");
    config.put("rabbitmq-port", Integer.toString(proxy.port()));
    config.put("quarkus.onceonly.broker.tls.enabled", "true");
    config.put("quarkus.onceonly.broker.tls.ca-file", ca.writePem(dir, "ca.crt").toString());
    return config;
  }

  @Override
  public void stop() {
    if (proxy != null) {
      proxy.close();
    }
    plain.stop();
  }
}

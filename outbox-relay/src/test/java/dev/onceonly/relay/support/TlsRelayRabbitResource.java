package dev.onceonly.relay.support;

import dev.onceonly.testsupport.tls.TestCa;
import dev.onceonly.testsupport.tls.TlsProxy;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link RelayRabbitResource}'s destination {@code events}, published over AMQPS only: the broker
 * behind a {@link TlsProxy} whose certificate a test CA signed, the destination given the proxy's
 * port after a node that is down, {@code tls=true} and the CA's PEM file. A test's own AMQP client
 * still reads the broker directly ({@link RelayRabbitResource#broker()}).
 */
public class TlsRelayRabbitResource extends RelayRabbitResource {

  private static volatile TlsProxy proxy;

  public static TlsProxy proxy() {
    return proxy;
  }

  @Override
  public Map<String, String> start() {
    Map<String, String> config = new HashMap<>(super.start());
    TestCa ca = TestCa.create("OnceOnly test relay broker CA");
    String caFile;
    try {
      caFile =
          ca.writePem(Files.createTempDirectory("onceonly-relay-broker-ca"), "ca.crt").toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    proxy =
        TlsProxy.start(
            ca.issue("127.0.0.1", "localhost"),
            TlsProxy.Protocol.DIRECT,
            broker().get("rabbitmq-host"),
            Integer.parseInt(broker().get("rabbitmq-port")));
    String prefix = "relay.destinations.\"" + DESTINATION + "\".rabbitmq.";
    config.put(prefix + "addresses", "127.0.0.1:1,127.0.0.1:" + proxy.port());
    config.put(prefix + "tls", "true");
    config.put(prefix + "ca-file", caFile);
    return config;
  }

  @Override
  public void stop() {
    if (proxy != null) {
      proxy.close();
    }
    super.stop();
  }
}

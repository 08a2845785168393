package dev.onceonly.testsupport.tls;

import dev.onceonly.testsupport.PostgresResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

/**
 * PostgreSQL over TLS only, for a Quarkus test: the database of {@link PostgresResource} (same init
 * args), or of another resource a subclass names, behind a {@link TlsProxy} in PostgreSQL mode,
 * reached with {@code sslmode=verify-full} and {@code sslrootcert=} the PEM file of a {@link
 * TestCa} of this resource, which signed the proxy's certificate for {@code localhost}: the driver
 * checks the chain and the host name.
 */
public class TlsPostgresResource implements QuarkusTestResourceLifecycleManager {

  private static volatile TlsProxy proxy;

  private final QuarkusTestResourceLifecycleManager plain;

  public TlsPostgresResource() {
    this(new PostgresResource());
  }

  /** {@code plain}'s database (any resource that gives {@code quarkus.datasource.*}) behind TLS. */
  protected TlsPostgresResource(QuarkusTestResourceLifecycleManager plain) {
    this.plain = plain;
  }

  /** The running proxy of the current test (one Quarkus application at a time). */
  public static TlsProxy proxy() {
    return proxy;
  }

  @Override
  public void init(Map<String, String> initArgs) {
    plain.init(initArgs);
  }

  @Override
  public Map<String, String> start() {
    Map<String, String> config = new HashMap<>(plain.start());
    URI url = URI.create(config.get("quarkus.datasource.jdbc.url").substring("jdbc:".length()));
    TestCa ca = TestCa.create("OnceOnly test database CA");
    String caFile;
    try {
      caFile = ca.writePem(Files.createTempDirectory("onceonly-db-ca"), "ca.crt").toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    proxy =
        TlsProxy.start(
            ca.issue("localhost", "127.0.0.1"),
            TlsProxy.Protocol.POSTGRESQL,
            url.getHost(),
            url.getPort());
    config.put(
        "quarkus.datasource.jdbc.url",
        "jdbc:postgresql://localhost:"
            + proxy.port()
            + url.getPath()
            + "?sslmode=verify-full&sslrootcert="
            + caFile);
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

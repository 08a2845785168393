package dev.onceonly.relay.support;

import dev.onceonly.testsupport.PostgresResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL database {@value #DATABASE} with the outbox schema migrated exactly as
 * consumer-service does it ({@link OutboxMigrations}: its Flyway settings), emptied, and the
 * relay's destinations pointed at the {@link ProviderStub} port: the loyalty example's two, and
 * {@code steady}, {@code stuck} and {@code outage} of the isolation tests ({@code /v1/<name>}).
 */
public class OutboxTestResource extends PostgresResource {

  public static final String DATABASE = "onceonly_relay_test";

  /** The destinations configured in the tests (application.properties, %test). */
  public static final List<String> DESTINATIONS =
      List.of("send_receipt", "issue_payout", "steady", "stuck", "outage");

  @Override
  public void init(Map<String, String> initArgs) {
    super.init(Map.of("database", initArgs.getOrDefault("database", DATABASE)));
  }

  @Override
  public Map<String, String> start() {
    Map<String, String> database = super.start();
    String url = database.get("quarkus.datasource.jdbc.url");
    String user = database.get("quarkus.datasource.username");
    String password = database.get("quarkus.datasource.password");
    migrate(url, user, password);
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "TRUNCATE outbox.outbox, outbox.outbox_attempts, outbox.outbox_audit RESTART IDENTITY");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot empty the outbox in " + url, e);
    }
    int port = freePort();
    System.setProperty(ProviderStub.PORT_PROPERTY, Integer.toString(port));
    Map<String, String> config = new HashMap<>(database);
    config.put(
        "relay.destinations.\"send_receipt\".http.url",
        "http://127.0.0.1:" + port + "/v1/receipts");
    config.put(
        "relay.destinations.\"issue_payout\".http.url", "http://127.0.0.1:" + port + "/v1/payouts");
    // The isolation tests' destinations (their settings are in application.properties, %test).
    for (String destination : List.of("steady", "stuck", "outage")) {
      config.put(
          "relay.destinations.\"" + destination + "\".http.url",
          "http://127.0.0.1:" + port + "/v1/" + destination);
    }
    return config;
  }

  /** Migrates the outbox schema as consumer-service (or its Job) does. */
  public static void migrate(String url, String user, String password) {
    OutboxMigrations.configure(url, user, password).load().migrate();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
